import {
  isCombo,
  profileCurrency,
  foldText,
  isAdmin,
  LANGUAGES,
  priceLanguageFor,
  SHOP_PAGE_SIZE,
  type AdminProduct,
  type CatalogueProduct,
  type Category,
  type CategoryForm,
  type Language,
  type ProductForm,
  type ShopProductPage,
  type ShopProductsQuery,
} from '@dentflow/domain';
import type { Readable } from 'node:stream';
import type { AppContext, RequestMeta } from '../../context';
import { AppError, validationError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { findTempUpload, takeTempUpload } from '../attachments';
import { writeAudit } from '../audit';
import {
  compareMostOrdered,
  compareShopDefault,
  isVisibleRow,
  productMatchesText,
  productValuesOf,
  toAdminProduct,
  toCategory,
  toShopProduct,
} from './product-mapping';
import {
  newProductImageName,
  PRODUCT_IMAGE_NAME,
  productImageKey,
  productImageKeyOfUrl,
  productImageUrl,
  productThumbnail,
} from './product-images';
import {
  findCategory,
  findOtherProductWithCode,
  findProduct,
  findProductForUpdate,
  findUserCurrency,
  insertCategoryWithNextId,
  insertProduct,
  isProductCodeViolation,
  listCategories,
  listLiveProducts,
  listProductsWithCategory,
  productOrderCounts,
  updateCategory,
  updateProduct,
  type ProductRow,
} from './products.repository';

/** The admin list's query word for "every product" (`GET /products/query/all`). */
export const ALL_PRODUCTS_QUERY = 'all';
/** Uploads bigger than this are not product images (the upload rule allows 5 MB). */
const MAX_IMAGE_UPLOAD_BYTES = 6 * 1024 * 1024;

const notFound = () => new AppError(404, 'NOT_FOUND');

/** A stored image ready to become a product's: the thumbnail and the temp upload it came from. */
interface PreparedImage {
  uploadId: number;
  tempKey: string;
  thumbnail: Buffer;
}

export function createProductsService(ctx: AppContext) {
  const { db, storage } = ctx;

  async function readObject(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await storage.getObjectStream(key)) {
      const buffer = Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > MAX_IMAGE_UPLOAD_BYTES) throw new AppError(413, 'FILE_TOO_LARGE');
      chunks.push(buffer);
    }
    return Buffer.concat(chunks);
  }

  /**
   * The caller's confirmed temporary `productThumbnail` upload, turned into the stored thumbnail.
   * Nothing is written yet: the upload is consumed in the save's transaction.
   */
  async function prepareImage(actor: AuthContext, uploadId: number): Promise<PreparedImage> {
    const row = await findTempUpload(db, actor.userId, uploadId, 'productThumbnail');
    if (!row) throw validationError({ imageUploadId: 'validation.invalid' });
    // The object may have gone meanwhile (the cleanup job): the upload is then no longer usable.
    const original = await readObject(row.storageKey).catch((error: unknown) => {
      throw error instanceof AppError
        ? error
        : validationError({ imageUploadId: 'validation.invalid' });
    });
    try {
      return { uploadId, tempKey: row.storageKey, thumbnail: await productThumbnail(original) };
    } catch {
      throw new AppError(422, 'FILE_CONTENT_MISMATCH', { imageUploadId: 'validation.invalid' });
    }
  }

  /** Every reference of the form exists and makes sense; no write happens before this passes. */
  async function checkReferences(id: number, form: ProductForm): Promise<void> {
    if (!(await findCategory(db, form.productCategory))) {
      throw validationError({ productCategory: 'validation.invalid' });
    }
    if (isCombo(form)) {
      const ids = form.innerProducts;
      if (new Set(ids).size !== ids.length || ids.includes(id)) {
        throw validationError({ innerProducts: 'validation.invalid' });
      }
      for (const innerId of ids) {
        const inner = await findProduct(db, innerId);
        // A part must be orderable on its own: present, not deleted, not a combo itself.
        if (!inner || inner.deletedAt || isCombo(inner)) {
          throw validationError({ innerProducts: 'validation.invalid' });
        }
      }
    }
    if (await findOtherProductWithCode(db, form.code, id)) {
      throw new AppError(409, 'CODE_TAKEN', { code: 'validation.invalid' });
    }
  }

  /** A product a non-admin may see: not deleted and published in their language. */
  async function loadVisible(actor: AuthContext, id: number, language: Language) {
    const row = await findProduct(db, id);
    if (!row) throw notFound();
    if (!isAdmin(actor.roles) && !isVisibleRow(row, language)) throw notFound();
    return row;
  }

  return {
    /** Published (in the caller's language), non-deleted products with that language's texts. */
    async list(language: Language): Promise<CatalogueProduct[]> {
      const rows = await listLiveProducts(ctx.db);
      return rows
        .filter(({ product }) => isVisibleRow(product, language))
        .map(({ product: row, categoryNames }) => ({
          id: row.id,
          code: row.code,
          productType: row.productType,
          productCategoryId: row.productCategoryId,
          categoryName: categoryNames[language],
          productKind: row.productKind,
          qtdOption: row.qtdOption,
          qtdMax: row.qtdMax,
          manufactureTime: row.manufactureTime,
          innerProducts: row.innerProducts,
          favorite: row.favorite,
          name: row.texts[language].name,
          description: row.texts[language].description,
          prices: {
            BRL: row.texts[priceLanguageFor('BRL')]?.price ?? row.price,
            USD: row.texts[priceLanguageFor('USD')]?.price ?? row.price,
          },
          modifiedAt: row.modifiedAt.toISOString(),
        }));
    },

    /**
     * The shop's page: products published in the caller's language, not deleted, of an active
     * category, whose combo parts are all still orderable; prices in the caller's profile
     * currency. Filtered, ordered and paged here (the catalogue is small), so `total` counts the
     * filtered products.
     */
    async shopProducts(
      actor: AuthContext,
      language: Language,
      query: ShopProductsQuery,
    ): Promise<ShopProductPage> {
      const currency = profileCurrency(
        { currency: await findUserCurrency(db, actor.userId) },
        language,
      );
      const priceLanguage = priceLanguageFor(currency);
      const rows = await listProductsWithCategory(db);
      const byId = new Map(rows.map(({ product }) => [product.id, product]));
      const text = foldText(query.q ?? '');

      const items = rows.flatMap(({ product, category }) => {
        if (!category.active || !isVisibleRow(product, language)) return [];
        if (query.category.length > 0 && !query.category.includes(category.id)) return [];
        const inner = isCombo(product)
          ? product.innerProducts.map((id) => byId.get(id))
          : ([] as (ProductRow | undefined)[]);
        if (inner.some((part) => !part || part.deletedAt || isCombo(part))) return [];
        const shopProduct = toShopProduct(
          product,
          inner as ProductRow[],
          category.names[language],
          language,
          currency,
          priceLanguage,
        );
        if (text && !productMatchesText(product, text, [shopProduct.name])) return [];
        return [shopProduct];
      });
      items.sort(
        query.mostOrdered
          ? compareMostOrdered(await productOrderCounts(db, actor.userId))
          : compareShopDefault,
      );
      const start = query.page * SHOP_PAGE_SIZE;
      return {
        items: items.slice(start, start + SHOP_PAGE_SIZE),
        total: items.length,
        page: query.page,
        pageSize: SHOP_PAGE_SIZE,
      };
    },

    /**
     * Admin search: the text (accents and case ignored) in the code or a name in any language;
     * `all` lists every product. Unpublished and deleted products included (flagged by their
     * texts' `publish` and `deletedAt`).
     */
    async query(text: string): Promise<AdminProduct[]> {
      const rows = await listProductsWithCategory(db);
      const folded = foldText(text);
      return rows
        .map(({ product }) => product)
        .filter(
          (product) =>
            text === ALL_PRODUCTS_QUERY ||
            productMatchesText(
              product,
              folded,
              LANGUAGES.map((language) => product.texts[language]?.name ?? ''),
            ),
        )
        .map(toAdminProduct);
    },

    /** One product; unpublished (in the caller's language) or deleted ones only for admins. */
    async get(actor: AuthContext, id: number, language: Language): Promise<AdminProduct> {
      return toAdminProduct(await loadVisible(actor, id, language));
    },

    /**
     * Creates (`id` 0) or replaces a product. Every reference is checked and the image prepared
     * before anything is written; the row, the image's consumption and the audit row are one
     * transaction, and the stored image object is removed again if that transaction fails.
     */
    async set(
      actor: AuthContext,
      id: number,
      form: ProductForm,
      meta: RequestMeta,
    ): Promise<AdminProduct> {
      if (id !== 0 && !(await findProduct(db, id))) throw notFound();
      await checkReferences(id, form);
      const image =
        typeof form.imageUploadId === 'number'
          ? await prepareImage(actor, form.imageUploadId)
          : undefined;
      const now = new Date();
      // Set inside the transaction, read after it (an object, so the compiler does not narrow).
      const written = { key: null as string | null, previousImage: null as string | null };
      let saved: ProductRow;
      try {
        saved = await db.transaction(async (tx) => {
          const values = productValuesOf(form, now);
          let row: ProductRow;
          if (id === 0) {
            row = await insertProduct(tx, values);
          } else {
            const locked = await findProductForUpdate(tx, id);
            if (!locked) throw notFound();
            written.previousImage = locked.image;
            row = await updateProduct(tx, id, values);
          }
          if (image) {
            // The upload is taken in this transaction, so two saves cannot both use it.
            if (!(await takeTempUpload(tx, image.uploadId, image.tempKey))) {
              throw validationError({ imageUploadId: 'validation.invalid' });
            }
            const name = newProductImageName();
            written.key = productImageKey(row.id, name);
            await storage.put(written.key, image.thumbnail, 'image/webp');
            row = await updateProduct(tx, row.id, { image: productImageUrl(row.id, name) });
          } else if (form.imageUploadId === null && row.image) {
            row = await updateProduct(tx, row.id, { image: null });
          }
          await writeAudit(tx, {
            actorUserId: actor.userId,
            action: id === 0 ? 'product.create' : 'product.update',
            entity: 'product',
            entityId: row.id,
            details: { code: row.code, image: image ? 'replaced' : form.imageUploadId },
            ip: meta.ip,
          });
          return row;
        });
      } catch (error) {
        if (written.key) await storage.delete(written.key).catch(() => undefined);
        if (isProductCodeViolation(error)) {
          throw new AppError(409, 'CODE_TAKEN', { code: 'validation.invalid' });
        }
        throw error;
      }
      // After commit: the temp object and the replaced image are no longer referenced.
      if (image) await storage.delete(image.tempKey).catch(() => undefined);
      const oldKey =
        written.previousImage !== saved.image ? productImageKeyOfUrl(written.previousImage) : null;
      if (oldKey) await storage.delete(oldKey).catch(() => undefined);
      return toAdminProduct(saved);
    },

    /**
     * Soft delete: the product leaves the shop and the lists, and stays on the case services
     * that use it. Deleting a deleted product answers its first deletion.
     */
    async remove(
      actor: AuthContext,
      id: number,
      meta: RequestMeta,
    ): Promise<{ id: number; deletedAt: string }> {
      const deletedAt = await db.transaction(async (tx) => {
        const locked = await findProductForUpdate(tx, id);
        if (!locked) throw notFound();
        if (locked.deletedAt) return locked.deletedAt;
        const now = new Date();
        await updateProduct(tx, id, { deletedAt: now, modifiedAt: now });
        await writeAudit(tx, {
          actorUserId: actor.userId,
          action: 'product.delete',
          entity: 'product',
          entityId: id,
          details: { code: locked.code },
          ip: meta.ip,
        });
        return now;
      });
      return { id, deletedAt: deletedAt.toISOString() };
    },

    /** The product's current image; an old or made-up name is 404. */
    async openImage(id: number, name: string): Promise<Readable> {
      if (!PRODUCT_IMAGE_NAME.test(name)) throw notFound();
      const row = await findProduct(db, id);
      if (!row || row.image !== productImageUrl(id, name)) throw notFound();
      return storage.getObjectStream(productImageKey(id, name));
    },

    categories: {
      /** Every category for admins, the active ones for everyone else. */
      async list(actor: AuthContext): Promise<Category[]> {
        return (await listCategories(db, isAdmin(actor.roles))).map(toCategory);
      },

      async get(id: number): Promise<Category> {
        const row = await findCategory(db, id);
        if (!row) throw notFound();
        return toCategory(row);
      },

      /** Creates (`id` 0, with the next id) or replaces a category's names and active flag. */
      async set(
        actor: AuthContext,
        id: number,
        form: CategoryForm,
        meta: RequestMeta,
      ): Promise<Category> {
        const row = await db.transaction(async (tx) => {
          const values = { names: form.name, active: form.active, modifiedAt: new Date() };
          const saved =
            id === 0
              ? await insertCategoryWithNextId(tx, values)
              : await updateCategory(tx, id, values);
          if (!saved) throw notFound();
          await writeAudit(tx, {
            actorUserId: actor.userId,
            action: id === 0 ? 'category.create' : 'category.update',
            entity: 'product_category',
            entityId: saved.id,
            details: { active: saved.active },
            ip: meta.ip,
          });
          return saved;
        });
        return toCategory(row);
      },
    },
  };
}
export type ProductsService = ReturnType<typeof createProductsService>;
