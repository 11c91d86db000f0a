/**
 * The shop's API contract: the shapes the server answers and the bodies it accepts,
 * shared by the server's routes and the web. Prices are integer minor units in `currency`.
 */
import { z } from 'zod';
import { amountSchema, boundedIntSchema, idSchema, pageSchema } from '../common/bounds';
import { MESSAGE } from '../forms/rules';
import { CURRENCIES, LANGUAGES, type Currency, type Language } from '../i18n/locale';
import { addressSchema } from '../common/address';
import { SHIPPING_OPTION_IDS } from '../constants';
import { PAYMENT_METHODS } from '../payments/payment';
import { paymentMethodsUnavailableSchema } from '../payments/payment-availability';
import { checkoutRequestSchema } from './checkout';
import { COUPON_REJECTIONS, couponSchema } from './coupon';
import { isCombo, productSchema, productTextSchema, percentSchema } from './product';

/** The language whose product texts carry a currency's prices (ptBR → BRL, en/es → USD). */
export const PRICE_LANGUAGE: Record<Currency, Language> = { BRL: 'ptBR', USD: 'en' };
export const priceLanguageFor = (currency: Currency): Language => PRICE_LANGUAGE[currency];

/**
 * A product may be ordered (added to a case, quoted, checked out) when it is not deleted and is
 * published both in the caller's language and in the language that prices the order's currency;
 * a draft is refused.
 */
export const isProductOrderable = (
  product: {
    texts: Partial<Record<Language, { publish?: boolean } | undefined>> | null;
    deletedAt: string | Date | null;
  },
  order: { language: Language; currency: Currency },
) =>
  !product.deletedAt &&
  !!product.texts?.[order.language]?.publish &&
  !!product.texts?.[priceLanguageFor(order.currency)]?.publish;

export const SHOP_PAGE_SIZE = 24;
export const ADMIN_PAGE_SIZE = 20;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

// ─────────────────────────────── shop catalogue ───────────────────────────────

/** `GET /api/v2/shop/products` query: categories as a comma list, page from 0. */
export const shopProductsQuerySchema = z.object({
  category: z
    .string()
    .max(200)
    .regex(/^(\d+(,\d+)*)?$/, MESSAGE.invalid)
    .optional()
    .transform((v) => (v ? [...new Set(v.split(',').map(Number))] : []))
    .pipe(z.array(idSchema)),
  mostOrdered: flag.optional().default(false),
  q: z.string().trim().max(120, MESSAGE.max).optional(),
  page: pageSchema.default(0),
});
export type ShopProductsQuery = z.infer<typeof shopProductsQuerySchema>;

/** A part of a combo as the shop shows it. */
export const shopInnerProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  productKind: z.number().int(),
  productCategoryId: z.number().int(),
  qtdOption: z.number().int(),
  qtdMax: z.number().int(),
  manufactureTime: z.number().int(),
  enableKit: z.boolean(),
  enableSleeve: z.boolean(),
  shipping: z.boolean(),
  price: z.number().int(),
});
export type ShopInnerProduct = z.infer<typeof shopInnerProductSchema>;

/**
 * A published product in the caller's language; `price` (and the inner products' prices) in
 * `currency`, the caller's profile currency. `price` of a combo is the sum of its parts before
 * the combo discount; `discount` is the combo discount percent (of the planning price).
 */
export const shopProductSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  productType: z.number().int(),
  productCategoryId: z.number().int(),
  categoryName: z.string(),
  productKind: z.number().int(),
  qtdOption: z.number().int(),
  qtdMax: z.number().int(),
  manufactureTime: z.number().int(),
  favorite: z.boolean(),
  enableKit: z.boolean(),
  enableSleeve: z.boolean(),
  shipping: z.boolean(),
  name: z.string(),
  description: z.string(),
  /** A URL the browser can load without a token, or null. */
  imageUrl: z.string().nullable(),
  currency: z.enum(CURRENCIES),
  price: z.number().int(),
  discount: z.number().int(),
  innerProducts: z.array(shopInnerProductSchema),
  modifiedAt: z.string(),
});
export type ShopProduct = z.infer<typeof shopProductSchema>;

export const shopProductPageSchema = z.object({
  items: z.array(shopProductSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ShopProductPage = z.infer<typeof shopProductPageSchema>;

// ─────────────────────────────── product admin ───────────────────────────────

/** `GET /products/get/{id}` and the admin list: the whole product, plus its image URL. */
export const adminProductSchema = productSchema.extend({ imageUrl: z.string().nullable() });
export type AdminProduct = z.infer<typeof adminProductSchema>;

const productTextFormSchema = productTextSchema.extend({
  name: z.string().trim().max(120, MESSAGE.max),
  description: z.string().trim().max(5000, MESSAGE.max),
  discount: percentSchema,
});

/**
 * `POST /products/set/{id}` (0 creates). `image`: keep (`undefined`), remove (`null`), or the id of
 * the caller's confirmed temporary upload of kind `productThumbnail` to become the image.
 * A published language needs a name. A combo needs at least one inner product.
 */
export const productFormSchema = z
  .object({
    productType: z.union([z.literal(1), z.literal(2)]),
    productCategory: idSchema,
    code: z
      .string({ error: MESSAGE.required })
      .trim()
      .min(1, MESSAGE.required)
      .max(40, MESSAGE.max)
      .regex(/^[A-Za-z0-9_-]+$/, MESSAGE.alphaNum),
    innerProducts: z.array(idSchema).max(10),
    imageUploadId: idSchema.nullable().optional(),
    manufactureTime: z.number().int(MESSAGE.numeric).min(0, MESSAGE.min).max(365, MESSAGE.max),
    productKind: z.number().int().min(1).max(2),
    qtdOption: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    qtdMax: z.number().int(MESSAGE.numeric).min(1, MESSAGE.min).max(32, MESSAGE.max),
    alignment: z.boolean(),
    favorite: z.boolean(),
    kindOfManufacture: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
    enableKit: z.boolean(),
    enableSleeve: z.boolean(),
    mockup: z.boolean(),
    shipping: z.boolean(),
    clientPrints: z.boolean(),
    uploadFiles: z.boolean(),
    downloadFiles: z.boolean(),
    texts: z.object({
      ptBR: productTextFormSchema,
      en: productTextFormSchema,
      es: productTextFormSchema,
    }),
  })
  .superRefine((product, ctx) => {
    for (const language of LANGUAGES) {
      const text = product.texts[language];
      if (text.publish && !text.name) {
        ctx.addIssue({
          code: 'custom',
          path: ['texts', language, 'name'],
          message: MESSAGE.required,
        });
      }
    }
    if (isCombo(product) && product.innerProducts.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['innerProducts'], message: MESSAGE.required });
    }
  });
export type ProductForm = z.infer<typeof productFormSchema>;

// ─────────────────────────────── categories ───────────────────────────────

/** `POST /products/category/set/{id}` (0 creates): name translation record. */
export const categoryFormSchema = z.object({
  name: z.object({
    ptBR: z.string().trim().min(1, MESSAGE.required).max(120, MESSAGE.max),
    en: z.string().trim().min(1, MESSAGE.required).max(120, MESSAGE.max),
    es: z.string().trim().min(1, MESSAGE.required).max(120, MESSAGE.max),
  }),
  active: z.boolean(),
});
export type CategoryForm = z.infer<typeof categoryFormSchema>;

/** A category as the API answers it. */
export const categorySchema = z.object({
  id: z.number().int(),
  name: z.object({ ptBR: z.string(), en: z.string(), es: z.string() }),
  active: z.boolean(),
  modifiedAt: z.string(),
});
export type Category = z.infer<typeof categorySchema>;

// ─────────────────────────────── coupons ───────────────────────────────

export const COUPON_LIST_FILTERS = ['all', 'active', 'inactive', 'expired'] as const;
export type CouponListFilter = (typeof COUPON_LIST_FILTERS)[number];

/** `GET /products/coupom/query/{filter}/{page}?q=`: `q` matches the code (case-insensitive). */
export const couponQueryParamsSchema = z.object({
  filter: z.enum(COUPON_LIST_FILTERS),
  page: pageSchema,
});

/** A coupon for admins: the stored coupon plus how many distinct users used it. */
export const adminCouponSchema = couponSchema.extend({ usersCount: z.number().int() });
export type AdminCoupon = z.infer<typeof adminCouponSchema>;

export const couponPageSchema = z.object({
  items: z.array(adminCouponSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CouponPage = z.infer<typeof couponPageSchema>;

// ─────────────────────────────── checkout ───────────────────────────────

/** One line of the server's breakdown (a cart item), names in the caller's language. */
export const breakdownLineSchema = z.object({
  cartProductId: z.number().int(),
  name: z.string(),
  quantity: z.number().int(),
  planningPrice: z.number().int(),
  manufacturePrice: z.number().int(),
  sleevesPrice: z.number().int(),
  comboDiscount: z.number().int(),
  /** This line's part of a percent coupon or of the instructor discount. */
  lineDiscount: z.number().int(),
});

/**
 * What an order costs, priced by the server with the domain engine (`priceOrder`): stored as the
 * transaction's `descriptions` and shown line by line at checkout.
 */
export const checkoutBreakdownSchema = z.object({
  currency: z.enum(CURRENCIES),
  lines: z.array(breakdownLineSchema),
  planningPrice: z.number().int(),
  manufacturePrice: z.number().int(),
  sleevesPrice: z.number().int(),
  subtotal: z.number().int(),
  comboDiscount: z.number().int(),
  couponDiscount: z.number().int(),
  instructorDiscount: z.number().int(),
  shippingFee: z.number().int(),
  total: z.number().int(),
  /** The applied coupon's code, or null. */
  coupon: z.string().nullable(),
  /**
   * Why the discounts are what they are (`discountChoice`): the applied coupon's type and value,
   * the caller's instructor discount percent (0 when not a student) and what that discount would
   * have taken off without the coupon. Absent on orders placed before they were recorded.
   */
  couponTerms: z
    .object({ coupomType: z.number().int(), value: z.number().int() })
    .nullable()
    .optional(),
  instructorPercent: z.number().int().optional(),
  instructorDiscountForgone: z.number().int().optional(),
});
export type CheckoutBreakdown = z.infer<typeof checkoutBreakdownSchema>;

/**
 * `POST /shop/quote`: the order as far as it is known (no idempotency key; payment method
 * optional) → the breakdown and what still blocks the checkout. Creates nothing.
 */
export const quoteRequestSchema = checkoutRequestSchema.extend({
  paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
});
export type QuoteRequest = z.infer<typeof quoteRequestSchema>;

export const quoteResponseSchema = z.object({
  breakdown: checkoutBreakdownSchema,
  /** Field path → catalogue key, as a checkout would refuse it (empty when it would pass). */
  problems: z.record(z.string(), z.string()),
  /** The coupon's rejection when one was given and does not apply. */
  couponRejection: z.enum(COUPON_REJECTIONS).nullable(),
  paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
  /** Why `paymentMethods` is empty and what the caller can do (null when a method is offered). */
  paymentMethodsUnavailable: paymentMethodsUnavailableSchema.nullable(),
});
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;

/** `POST /shop/checkout`: the domain's checkout request plus an idempotency key. */
export const checkoutBodySchema = checkoutRequestSchema.extend({
  idempotencyKey: z.string().trim().min(8).max(100),
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

export const checkoutResultSchema = z.object({
  caseId: z.number().int(),
  transactionId: z.number().int(),
  breakdown: checkoutBreakdownSchema,
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

/**
 * `GET /products/coupom/lookup/{code}?cart=` — `cart` is the JSON of `{items, currency,
 * caseId?}` (the checkout's items), optional: without it only the coupon itself is checked.
 */
export const couponLookupResponseSchema = z.object({
  code: z.string(),
  applicable: z.boolean(),
  rejection: z.enum(COUPON_REJECTIONS).nullable(),
  /** The rejection in the caller's language, or ''. */
  message: z.string(),
  coupomType: z.number().int().nullable(),
  value: z.number().int().nullable(),
  /** What it takes off the cart given (0 without one). */
  discount: z.number().int(),
  currency: z.enum(CURRENCIES).nullable(),
});
export type CouponLookupResponse = z.infer<typeof couponLookupResponseSchema>;

// ─────────────────────────────── delivery ───────────────────────────────

/** `GET /shop/fetchSleeves?currency=`: sleeve, price in the currency asked. */
export const sleeveOfferSchema = z.object({
  id: z.number().int(),
  sleeve_manufacture: z.string(),
  sleeve_price: z.number().int(),
  currency: z.enum(CURRENCIES),
});
export type SleeveOffer = z.infer<typeof sleeveOfferSchema>;

/** `POST /shop/fetchAddress`: the profile address and the addresses of earlier deliveries. */
export const knownAddressesSchema = z.object({
  profile: addressSchema.nullable(),
  deliveries: z.array(addressSchema),
});
export type KnownAddresses = z.infer<typeof knownAddressesSchema>;

/** `GET /shop/getShippingPrice/{zipcode}?currency=`: the options that serve the zip code. */
export const shippingQuoteSchema = z.object({
  shipmentType: z.number().int(),
  fee: z.number().int(),
  days: z.number().int(),
  currency: z.enum(CURRENCIES),
});
export type ShippingQuote = z.infer<typeof shippingQuoteSchema>;

/** More rows (options, motoboy zip ranges) than a shipping table ever needs. */
export const SHIPPING_ROWS_MAX = 100;

/**
 * The shipping table kept in settings (key `shipping`): fee per currency and days for each
 * option, and the zip ranges (8 digits, inclusive) the motoboy serves. Local withdraw is free.
 */
export const shippingSettingsSchema = z.object({
  options: z
    .array(
      z.object({
        shipmentType: z.union(
          SHIPPING_OPTION_IDS.map((id) => z.literal(id)) as unknown as [
            z.ZodLiteral<0>,
            z.ZodLiteral<1>,
            z.ZodLiteral<2>,
            z.ZodLiteral<3>,
          ],
        ),
        fees: z.object({ BRL: amountSchema, USD: amountSchema }),
        days: boundedIntSchema(0, 90),
        active: z.boolean(),
      }),
    )
    .max(SHIPPING_ROWS_MAX),
  motoboyZipRanges: z
    .array(z.object({ from: z.string().regex(/^\d{8}$/), to: z.string().regex(/^\d{8}$/) }))
    .max(SHIPPING_ROWS_MAX),
});
export type ShippingSettings = z.infer<typeof shippingSettingsSchema>;

export const currencyQuerySchema = z.object({ currency: z.enum(CURRENCIES).optional() });
