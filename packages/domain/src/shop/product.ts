import { z } from 'zod';
import { amountSchema } from '../common/bounds';
import { MESSAGE } from '../forms/rules';
import type { Language } from '../i18n/locale';
import { MANUFACTURE_TIME_DEFAULT_DAYS, QTD_MAX_DEFAULT } from '../constants';

/** Products: named constants for the numeric codes, the Product schema, categories, kits. */
export const PRODUCT_TYPES = { single: 1, combo: 2 } as const;

/** 1 is a planning service; any other value is manufacturing (2 is what the app stores). */
export const PRODUCT_KINDS = { planning: 1, manufacturing: 2 } as const;
export const isPlanningKind = (productKind: number) => productKind === PRODUCT_KINDS.planning;
export const isManufacturingKind = (productKind: number) => productKind !== PRODUCT_KINDS.planning;

/** Quantity options: 1 per case, 2 per arch, 3 per element (tooth). */
export const QTD_OPTIONS = { perCase: 1, perArch: 2, perElement: 3 } as const;
export type QtdOptionId = (typeof QTD_OPTIONS)[keyof typeof QTD_OPTIONS];
export const QTD_OPTION_IDS = Object.values(QTD_OPTIONS) as QtdOptionId[];

/** Kinds of manufacture: 1 the provider will print, 2 should print, 3 can print. */
export const KINDS_OF_MANUFACTURE = { providerPrints: 1, shouldPrint: 2, canPrint: 3 } as const;

/** A discount percent, whole numbers 0-100. */
export const percentSchema = z
  .number()
  .int(MESSAGE.numeric)
  .min(0, MESSAGE.min)
  .max(100, MESSAGE.max);

export const productTextSchema = z.object({
  name: z.string().max(120, MESSAGE.max),
  description: z.string().max(5000, MESSAGE.max),
  /** Minor units in the language's currency (ptBR → BRL, en/es → USD). */
  price: amountSchema,
  /** Combo discount percent. */
  discount: percentSchema,
  publish: z.boolean(),
});

export const productSchema = z.object({
  id: z.number().int(),
  productType: z.union([z.literal(1), z.literal(2)]),
  productCategory: z.number().int(),
  code: z.string().max(40, MESSAGE.max),
  innerProducts: z.array(z.number().int()),
  image: z.string().max(500).nullable(),
  manufactureTime: z.number().int().min(0).default(MANUFACTURE_TIME_DEFAULT_DAYS),
  productKind: z.number().int().min(1),
  qtdOption: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  qtdMax: z.number().int().min(1).default(QTD_MAX_DEFAULT),
  alignment: z.boolean(),
  favorite: z.boolean(),
  kindOfManufacture: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
  enableKit: z.boolean(),
  enableSleeve: z.boolean(),
  mockup: z.boolean(),
  shipping: z.boolean(),
  clientPrints: z.boolean(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  deletedAt: z.string().nullable(),
  uploadFiles: z.boolean(),
  downloadFiles: z.boolean(),
  texts: z.object({ ptBR: productTextSchema, en: productTextSchema, es: productTextSchema }),
  price: amountSchema,
  discount: percentSchema,
});
export type Product = z.infer<typeof productSchema>;

/** A combo is sold as a bundle of single products (its parts) with its own discount. */
export const isCombo = (product: { productType: number }) =>
  product.productType === PRODUCT_TYPES.combo;

/**
 * The provider prints a product (printers see the case, the case has a print step) when it is a
 * manufacturing product the client does not print themselves (docs/decisions/011).
 */
export const isPrintableProduct = (product: { productKind: number; clientPrints: boolean }) =>
  isManufacturingKind(product.productKind) && !product.clientPrints;

export const isPerElement = (qtdOption: number) => qtdOption === QTD_OPTIONS.perElement;

/** The price in a language's texts, falling back to the product's base price. */
export function productPrice(
  product: Pick<Product, 'texts' | 'price'>,
  language: Language,
): number {
  return product.texts?.[language]?.price ?? product.price;
}

/** The combo discount percent (only combos have one). */
export function comboDiscountPercent(
  product: Pick<Product, 'texts' | 'discount' | 'productType'>,
  language: Language,
): number {
  if (!isCombo(product)) return 0;
  return product.texts?.[language]?.discount ?? product.discount;
}

export const productName = (product: Pick<Product, 'texts'>, language: Language) =>
  product.texts?.[language]?.name || product.texts?.en?.name || '';

/** Shown in the shop for a language: published in that language and not deleted. */
export const isProductVisible = (
  product: Pick<Product, 'texts' | 'deletedAt'>,
  language: Language,
) => !product.deletedAt && !!product.texts?.[language]?.publish;

/** Quantity limits of a product: 1..qtdMax (default 1). */
export function clampQuantity(quantity: number, qtdMax: number = QTD_MAX_DEFAULT): number {
  const max = Math.max(1, Math.floor(qtdMax));
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(max, Math.max(1, Math.floor(quantity)));
}

/** Sleeve and Surgical kit. */
export const sleeveSchema = z.object({
  id: z.number().int(),
  sleeve_manufacture: z.string().max(120),
  sleeve_price: amountSchema,
});
export type Sleeve = z.infer<typeof sleeveSchema>;
