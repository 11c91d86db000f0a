import {
  attachmentFileRejection,
  attachmentFileRule,
  FILE_TYPE_MIME,
  type Attachment,
  type FileRejection,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { confirmUpload } from '../../attachments/api/confirm-upload';
import type { PresignedUpload } from '../../attachments/api/create-post-url';
import { uploadToStorage } from '../../attachments/api/upload-to-storage';

/** The attachment name of a product image: the `productThumbnail` bucket, its generic kind. */
export const PRODUCT_IMAGE_ATTACHMENT = 'productThumbnail';

const imageRule = attachmentFileRule('productThumbnail', 'generic');

/** The image types the domain accepts for product images, for the file picker. */
export const PRODUCT_IMAGE_ACCEPT = imageRule.types.map((type) => FILE_TYPE_MIME[type]).join(',');
export const PRODUCT_IMAGE_MAX_BYTES = imageRule.maxBytes;

/** Why a chosen file cannot be a product image (the server checks again), or null. */
export const productImageRejection = (file: File): FileRejection | null =>
  attachmentFileRejection('productThumbnail', 'generic', {
    filename: file.name,
    filesize: file.size,
    mimetype: file.type || null,
  });

/**
 * Uploads a product image as a temporary file: announce it (`create/temp`, kind
 * productThumbnail), post it to the store with progress, then confirm it (the server checks its
 * size and first bytes). Answers the attachment id the product form sends as `imageUploadId`.
 */
export async function uploadProductImage(
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<number> {
  const { attachment, upload } = await api.post<{
    attachment: Attachment;
    upload: PresignedUpload;
  }>('/attachment/create/temp', {
    filename: file.name,
    filesize: file.size,
    attachment_name: PRODUCT_IMAGE_ATTACHMENT,
    ...(file.type ? { mimetype: file.type } : {}),
  });
  const transfer = uploadToStorage(upload, file, onProgress);
  signal?.addEventListener('abort', transfer.abort, { once: true });
  try {
    await transfer.promise;
  } finally {
    signal?.removeEventListener('abort', transfer.abort);
  }
  const confirmed = await confirmUpload(attachment.id);
  return confirmed.attachment.id;
}
