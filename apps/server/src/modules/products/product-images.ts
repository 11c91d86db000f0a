import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/**
 * Product images: a WebP thumbnail stored as `products/{id}/{32 hex}` and served, without a
 * token, at `/api/v1/products/image/{id}/{32 hex}` (the URL kept in `products.image`). The name
 * is random and changes with every upload, so the URL can be cached for good.
 */
export const PRODUCT_IMAGE_PATH = '/api/v1/products/image';
/** Longest side of the stored thumbnail, in pixels. */
export const PRODUCT_IMAGE_SIZE = 600;
export const PRODUCT_IMAGE_NAME = /^[a-f0-9]{32}$/;

export const newProductImageName = () => randomBytes(16).toString('hex');
export const productImageKey = (productId: number, name: string) => `products/${productId}/${name}`;
export const productImageUrl = (productId: number, name: string) =>
  `${PRODUCT_IMAGE_PATH}/${productId}/${name}`;

/** The object key behind a stored image URL, or null for anything else. */
export function productImageKeyOfUrl(url: string | null | undefined): string | null {
  const match = url?.match(/^\/api\/v1\/products\/image\/(\d+)\/([a-f0-9]{32})$/);
  return match ? productImageKey(Number(match[1]), match[2]!) : null;
}

/**
 * The stored form of an uploaded image: EXIF orientation applied, at most PRODUCT_IMAGE_SIZE on
 * its longest side, WebP. Throws when the bytes are not a decodable image.
 */
export function productThumbnail(image: Buffer): Promise<Buffer> {
  // A pixel cap against decompression bombs; the first frame of an animated image.
  return sharp(image, { limitInputPixels: 40_000_000, animated: false })
    .rotate()
    .resize(PRODUCT_IMAGE_SIZE, PRODUCT_IMAGE_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer();
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A demo image: a coloured tile with the product's code, drawn by sharp from SVG. */
export function demoProductImage(code: string, colour: string): Promise<Buffer> {
  const side = 320;
  // Long codes get a smaller font so they stay on the tile.
  const fontSize = Math.min(26, Math.floor(460 / Math.max(code.length, 1)));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
    <rect width="100%" height="100%" fill="${colour}"/>
    <circle cx="${side / 2}" cy="120" r="62" fill="#ffffff" fill-opacity="0.25"/>
    <path d="M130 92 q30 -24 60 0 q12 40 -6 86 q-8 14 -14 -12 q-10 -22 -20 0 q-6 26 -14 12 q-18 -46 -6 -86 z"
      fill="#ffffff"/>
    <text x="50%" y="250" text-anchor="middle" font-family="DejaVu Sans, sans-serif"
      font-size="${fontSize}" font-weight="bold" fill="#ffffff">${escapeXml(code)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}
