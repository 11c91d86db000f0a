import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A name in the three interface languages. */
export interface TranslatedName {
  ptBR: string;
  en: string;
  es: string;
}

/** Per-language product texts. Prices are integer minor units. */
export interface ProductLanguageText {
  name: string;
  description: string;
  price: number;
  discount: number;
  publish: boolean;
}
export interface ProductTexts {
  ptBR: ProductLanguageText;
  en: ProductLanguageText;
  es: ProductLanguageText;
}

/** Announcement: at most one is shown, the newest active one. */
export const announcements = pgTable('announcements', {
  id: serial('id').primaryKey(),
  active: boolean('active').notNull().default(false),
  title: text('title').notNull().default(''),
  body: text('body').notNull().default(''),
  /** Title and body per language (ptBR, en, es); `title`/`body` keep the English ones. */
  texts: jsonb('texts').$type<Record<string, { title: string; body: string }>>(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  modifiedAt: timestamp('modified_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Product categories; ids 1-8 decide which service-data sections show. */
export const productCategories = pgTable('product_categories', {
  id: integer('id').primaryKey(),
  names: jsonb('names').$type<TranslatedName>().notNull(),
  active: boolean('active').notNull().default(true),
  modifiedAt: timestamp('modified_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    /** 1 unit/single, 2 combo. */
    productType: integer('product_type').notNull().default(1),
    productCategoryId: integer('product_category_id')
      .notNull()
      .references(() => productCategories.id),
    code: text('code').notNull(),
    innerProducts: jsonb('inner_products').$type<number[]>().notNull().default([]),
    image: text('image'),
    manufactureTime: integer('manufacture_time').notNull().default(1),
    /** 1 planning service, otherwise manufacturing. */
    productKind: integer('product_kind').notNull().default(1),
    /** 1 per case, 2 per arch, 3 per element/tooth. */
    qtdOption: integer('qtd_option').notNull().default(1),
    qtdMax: integer('qtd_max').notNull().default(1),
    alignment: integer('alignment').notNull().default(0),
    favorite: boolean('favorite').notNull().default(false),
    /** 1 the provider will print, 2 should print, 3 can print. */
    kindOfManufacture: integer('kind_of_manufacture').notNull().default(1),
    enableKit: boolean('enable_kit').notNull().default(false),
    enableSleeve: boolean('enable_sleeve').notNull().default(false),
    mockup: boolean('mockup').notNull().default(false),
    shipping: boolean('shipping').notNull().default(false),
    clientPrints: boolean('client_prints').notNull().default(false),
    uploadFiles: boolean('upload_files').notNull().default(true),
    downloadFiles: boolean('download_files').notNull().default(false),
    texts: jsonb('texts').$type<ProductTexts>().notNull(),
    /** Base price and discount in minor units (cents). */
    price: integer('price').notNull().default(0),
    discount: integer('discount').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('products_code_unique').on(t.code),
    index('products_category_idx').on(t.productCategoryId),
  ],
);

/** Surgical kit: a manufacturer and its systems. */
export const surgicalKitManufacturers = pgTable(
  'surgical_kit_manufacturers',
  {
    id: serial('id').primaryKey(),
    manufactureName: text('manufacture_name').notNull(),
    systems: jsonb('systems').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    modifiedAt: timestamp('modified_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [uniqueIndex('surgical_kit_manufacturers_name_unique').on(t.manufactureName)],
);

/**
 * Coupons, minimal for now: registration validates a code; the shop issue adds the pricing use.
 * `code` is the spec's coupon name (the text in `/register/{coupom}`), unique without regard to case.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    /** 1 percent, 2 fixed, 3 unit. */
    coupomType: integer('coupom_type').notNull().default(1),
    value: integer('value').notNull().default(0),
    active: boolean('active').notNull().default(true),
    maxUsage: integer('max_usage'),
    used: integer('used').notNull().default(0),
    bind2User: integer('bind2_user'),
    bind2Product: integer('bind2_product'),
    bind2Category: integer('bind2_category'),
    oncePerUser: boolean('once_per_user').notNull().default(false),
    applyOnManufactureService: boolean('apply_on_manufacture_service').notNull().default(false),
    expireAt: timestamp('expire_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('coupons_code_lower_unique').on(sql`lower(${t.code})`)],
);
