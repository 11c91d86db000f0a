import {
  isCombo,
  comboDiscountPercent,
  foldText,
  productName,
  productPrice,
  type AdminProduct,
  type Category,
  type Currency,
  type Language,
  type ProductForm,
  type ShopProduct,
} from '@dentflow/domain';
import type {
  CategoryRow,
  ProductOrderCount,
  ProductRow,
  ProductValues,
} from './products.repository';
import { isoOrNull } from '../../http/envelope';

/** Row versions of the domain's product predicates (the columns are plain integers and dates). */
export const isVisibleRow = (row: Pick<ProductRow, 'texts' | 'deletedAt'>, language: Language) =>
  !row.deletedAt && !!row.texts[language]?.publish;

/** `kindOfManufacture` is a NOT NULL column: 0 stands for "none" (planning products). */
const KIND_OF_MANUFACTURE_NONE = 0;

const oneOf123 = (value: number): 1 | 2 | 3 | null =>
  value === 1 || value === 2 || value === 3 ? value : null;

/** A stored product as the admin API answers it. */
export function toAdminProduct(row: ProductRow): AdminProduct {
  return {
    id: row.id,
    productType: row.productType === 2 ? 2 : 1,
    productCategory: row.productCategoryId,
    code: row.code,
    innerProducts: row.innerProducts,
    image: row.image,
    imageUrl: row.image,
    manufactureTime: row.manufactureTime,
    productKind: row.productKind,
    qtdOption: oneOf123(row.qtdOption) ?? 1,
    qtdMax: row.qtdMax,
    alignment: row.alignment !== 0,
    favorite: row.favorite,
    kindOfManufacture: oneOf123(row.kindOfManufacture),
    enableKit: row.enableKit,
    enableSleeve: row.enableSleeve,
    mockup: row.mockup,
    shipping: row.shipping,
    clientPrints: row.clientPrints,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
    deletedAt: isoOrNull(row.deletedAt),
    uploadFiles: row.uploadFiles,
    downloadFiles: row.downloadFiles,
    texts: row.texts,
    price: row.price,
    discount: row.discount,
  };
}

/**
 * The columns a saved form writes. The base `price`/`discount` columns mirror the en texts (the
 * USD price language), so older readers of the columns see a consistent value.
 */
export function productValuesOf(form: ProductForm, now: Date): ProductValues {
  return {
    productType: form.productType,
    productCategoryId: form.productCategory,
    code: form.code,
    innerProducts: isCombo(form) ? form.innerProducts : [],
    manufactureTime: form.manufactureTime,
    productKind: form.productKind,
    qtdOption: form.qtdOption,
    qtdMax: form.qtdMax,
    alignment: form.alignment ? 1 : 0,
    favorite: form.favorite,
    kindOfManufacture: form.kindOfManufacture ?? KIND_OF_MANUFACTURE_NONE,
    enableKit: form.enableKit,
    enableSleeve: form.enableSleeve,
    mockup: form.mockup,
    shipping: form.shipping,
    clientPrints: form.clientPrints,
    uploadFiles: form.uploadFiles,
    downloadFiles: form.downloadFiles,
    texts: form.texts,
    price: form.texts.en.price,
    discount: form.texts.en.discount,
    modifiedAt: now,
  };
}

export function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    name: { ptBR: row.names.ptBR, en: row.names.en, es: row.names.es },
    active: row.active,
    modifiedAt: row.modifiedAt.toISOString(),
  };
}

/** Does a product's code or one of its names contain the (already folded) text? */
export function productMatchesText(row: ProductRow, foldedText: string, names: string[]): boolean {
  return [row.code, ...names].some((field) => foldText(field).includes(foldedText));
}

/**
 * A product as the shop shows it: texts in `language`, prices from the texts of the currency's
 * price language. A combo costs the sum of its parts; `discount` is its combo discount percent.
 */
export function toShopProduct(
  row: ProductRow,
  inner: ProductRow[],
  categoryName: string,
  language: Language,
  currency: Currency,
  priceLanguage: Language,
): ShopProduct {
  const combo = isCombo(row);
  return {
    id: row.id,
    code: row.code,
    productType: row.productType,
    productCategoryId: row.productCategoryId,
    categoryName,
    productKind: row.productKind,
    qtdOption: row.qtdOption,
    qtdMax: row.qtdMax,
    manufactureTime: row.manufactureTime,
    favorite: row.favorite,
    enableKit: row.enableKit,
    enableSleeve: row.enableSleeve,
    shipping: row.shipping,
    name: productName(row, language),
    description: row.texts[language]?.description ?? '',
    imageUrl: row.image,
    currency,
    price: combo
      ? inner.reduce((sum, part) => sum + productPrice(part, priceLanguage), 0)
      : productPrice(row, priceLanguage),
    discount: comboDiscountPercent(
      { texts: row.texts, discount: row.discount, productType: combo ? 2 : 1 },
      priceLanguage,
    ),
    innerProducts: inner.map((part) => ({
      id: part.id,
      name: productName(part, language),
      productKind: part.productKind,
      productCategoryId: part.productCategoryId,
      qtdOption: part.qtdOption,
      qtdMax: part.qtdMax,
      manufactureTime: part.manufactureTime,
      enableKit: part.enableKit,
      enableSleeve: part.enableSleeve,
      shipping: part.shipping,
      price: productPrice(part, priceLanguage),
    })),
    modifiedAt: row.modifiedAt.toISOString(),
  };
}

/** Shop order: favourites first, then category, then id. */
export function compareShopDefault(a: ShopProduct, b: ShopProduct): number {
  return (
    Number(b.favorite) - Number(a.favorite) ||
    a.productCategoryId - b.productCategoryId ||
    a.id - b.id
  );
}

/** 'Most ordered': the caller's uses first, then everyone's, then id. */
export function compareMostOrdered(counts: ProductOrderCount[]) {
  const byId = new Map(counts.map((count) => [count.productId, count]));
  return (a: ShopProduct, b: ShopProduct): number => {
    const ca = byId.get(a.id);
    const cb = byId.get(b.id);
    return (
      (cb?.mine ?? 0) - (ca?.mine ?? 0) || (cb?.everyone ?? 0) - (ca?.everyone ?? 0) || a.id - b.id
    );
  };
}
