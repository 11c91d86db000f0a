/**
 * The settings administration API contract, shared by the server's
 * routes and the web. Every section is admin only: `GET /api/v1/settings/{section}` answers the
 * section, `POST /api/v1/settings/{section}` takes the same document (the body schema below),
 * saves it, answers what GET would answer now, and takes effect at once. Announcements live under
 * `/api/v1/profile/…` (see the end of this file).
 */
import { z } from 'zod';
import { amountSchema, codeSchema, idSchema } from '../common/bounds';
import { MESSAGE, isEmail } from '../forms/rules';
import { TREATMENT_PURPOSE_IDS } from '../cases/service-data';
import { CURRENCIES, LANGUAGES, type Language } from '../i18n/locale';
import {
  DEFAULT_EMAIL_NOTIFICATIONS,
  notificationTypeIdsSchema,
} from '../notifications/notification-api';
import { PAYMENT_METHODS } from '../payments/payment';
import { shippingSettingsSchema } from '../shop/shop-api';

export const SETTINGS_SECTIONS = [
  'payments',
  'emails',
  'serviceMetadata',
  'treatmentPurposes',
  'sleeves',
  'shipping',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/* ───────────────────────────── payments ───────────────────────────── */

/** The Pix BR Code's limits (EMV fields 26.01, 59 and 60). */
export const PIX_KEY_MAX = 77;
export const PIX_MERCHANT_NAME_MAX = 25;
export const PIX_MERCHANT_CITY_MAX = 15;

/** Whether a BR Code can carry a merchant name or city: some ASCII letter once accents go. */
export const isPixWritableText = (text: string) =>
  /[A-Za-z]/.test(text.normalize('NFD').replace(/\p{M}/gu, ''));

/** Empty (the server's `PIX_*` configuration applies) or writable into a BR Code. */
const pixText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, MESSAGE.max)
    .refine((text) => text === '' || isPixWritableText(text), MESSAGE.invalidCharacters);

/** Which payment methods are switched on; a method off is never offered, whatever else holds. */
export const paymentMethodSwitchesSchema = z.object(
  Object.fromEntries(PAYMENT_METHODS.map((method) => [method, z.boolean()])) as Record<
    (typeof PAYMENT_METHODS)[number],
    z.ZodBoolean
  >,
);
export type PaymentMethodSwitches = z.infer<typeof paymentMethodSwitchesSchema>;
/** Nothing stored yet: every method on (each still needs its own configuration). */
export const DEFAULT_PAYMENT_METHOD_SWITCHES: PaymentMethodSwitches = {
  pix: true,
  physical: true,
  dentalPrev: true,
  paypal: true,
  pagseguro: true,
};

/**
 * `POST /settings/payments`. An empty key, name or city falls back to the server's `PIX_KEY`,
 * `PIX_MERCHANT_NAME`, `PIX_MERCHANT_CITY`; a name or city with no ASCII letter is refused
 * (no BR Code could carry it).
 */
export const paymentsSettingsSchema = z.object({
  pixKey: z
    .string()
    .trim()
    .max(PIX_KEY_MAX, MESSAGE.max)
    .regex(/^[\x21-\x7e]*$/, MESSAGE.invalidCharacters),
  pixMerchantName: pixText(PIX_MERCHANT_NAME_MAX),
  pixMerchantCity: pixText(PIX_MERCHANT_CITY_MAX),
  enabled: paymentMethodSwitchesSchema,
});
export type PaymentsSettings = z.infer<typeof paymentsSettingsSchema>;

/** `GET /settings/payments`: the document plus what the server has configured — never secrets. */
export const paymentsSettingsViewSchema = paymentsSettingsSchema.extend({
  /** A Pix receiver is known now (stored or configured key, name and city). */
  pixConfigured: z.boolean(),
  /** PayPal / PagBank credentials are present in the server's configuration. */
  paypalConfigured: z.boolean(),
  pagbankConfigured: z.boolean(),
  /**
   * The currencies no client can pay online in with these settings (`currenciesWithoutOnlineMethod`):
   * only clients with the card machine or insurance capability can check out in them.
   */
  currenciesWithoutOnlineMethod: z.array(z.enum(CURRENCIES)),
});
export type PaymentsSettingsView = z.infer<typeof paymentsSettingsViewSchema>;

/* ───────────────────────────── emails ───────────────────────────── */

export const SENDER_NAME_MAX = 60;

export const SUPPORT_EMAIL_MAX = 254;

/**
 * `GET`/`POST /settings/emails`: the name mails are sent under, the address clients are told to
 * write to when they are stuck (e.g. no payment method at checkout; empty: none is named), and
 * the notification types mailed to users who never chose theirs (sorted, no repeats).
 */
export const emailsSettingsSchema = z.object({
  senderName: z
    .string()
    .trim()
    .min(1, MESSAGE.required)
    .max(SENDER_NAME_MAX, MESSAGE.max)
    // A display name of a mail header: no quotes, angle brackets or line breaks.
    .regex(/^[^"<>\\\p{Cc}]*$/u, MESSAGE.invalidCharacters),
  supportEmail: z
    .string()
    .trim()
    .max(SUPPORT_EMAIL_MAX, MESSAGE.max)
    .refine((text) => text === '' || isEmail(text), MESSAGE.email)
    .default(''),
  defaultEvents: notificationTypeIdsSchema,
});
export type EmailsSettings = z.infer<typeof emailsSettingsSchema>;
/** The `emails` answer (the stored document, already sorted). */
export const emailsSettingsViewSchema = z.object({
  senderName: z.string(),
  supportEmail: z.string(),
  defaultEvents: z.array(z.number().int()),
});
export const DEFAULT_SENDER_NAME = 'Dentflow';
export const DEFAULT_EMAILS_SETTINGS: EmailsSettings = {
  senderName: DEFAULT_SENDER_NAME,
  supportEmail: '',
  defaultEvents: [...DEFAULT_EMAIL_NOTIFICATIONS].sort((a, b) => a - b),
};

/* ───────────────────────────── service metadata ───────────────────────────── */

export const KIT_NAME_MAX = 120;
export const KIT_SYSTEMS_MAX = 100;

const uniqueBy = <T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  fieldOf: (index: number) => (string | number)[],
  ctx: z.RefinementCtx,
) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key))
      ctx.addIssue({ code: 'custom', message: MESSAGE.invalid, path: fieldOf(index) });
    seen.add(key);
  });
};

export const kitManufacturerSchema = z.object({
  /** Absent: a new manufacturer. */
  id: idSchema.optional(),
  manufactureName: z.string().trim().min(1, MESSAGE.required).max(KIT_NAME_MAX, MESSAGE.max),
  systems: z
    .array(z.string().trim().min(1, MESSAGE.required).max(KIT_NAME_MAX, MESSAGE.max))
    .max(KIT_SYSTEMS_MAX, MESSAGE.max)
    .superRefine((systems, ctx) =>
      uniqueBy(
        systems,
        (s) => s.toLowerCase(),
        (i) => [i],
        ctx,
      ),
    ),
  /** Inactive manufacturers are kept but not offered in the service data form. */
  active: z.boolean(),
});
export type KitManufacturer = z.infer<typeof kitManufacturerSchema>;

/**
 * `GET`/`POST /settings/serviceMetadata`: the whole list of surgical kit manufacturers (names
 * unique regardless of case). POST replaces the list: rows with an `id` are updated, rows
 * without one created, stored rows left out of the list deleted (cases keep the names they
 * chose; deactivate with `active: false` to keep one without offering it). GET answers every
 * row with its `id`, by name.
 */
export const serviceMetadataSettingsSchema = z.object({
  kitManufacturers: z
    .array(kitManufacturerSchema)
    .max(500, MESSAGE.max)
    .superRefine((rows, ctx) => {
      uniqueBy(
        rows,
        (r) => r.manufactureName.toLowerCase(),
        (i) => [i, 'manufactureName'],
        ctx,
      );
      uniqueBy(
        rows.filter((r) => r.id !== undefined),
        (r) => String(r.id),
        (i) => [i, 'id'],
        ctx,
      );
    }),
});
export type ServiceMetadataSettings = z.infer<typeof serviceMetadataSettingsSchema>;
/** The `serviceMetadata` answer: every stored row, with its id. */
export const serviceMetadataSettingsViewSchema = z.object({
  kitManufacturers: z.array(kitManufacturerSchema.extend({ id: z.number().int() })),
});
export type ServiceMetadataSettingsView = z.infer<typeof serviceMetadataSettingsViewSchema>;

/* ───────────────────────────── treatment purposes ───────────────────────────── */

export const TREATMENT_PURPOSE_TEXT_MAX = 60;

/** A name replacing a purpose's built-in label in one language; empty keeps the built-in label. */
const treatmentPurposeText = z
  .string()
  .trim()
  .max(TREATMENT_PURPOSE_TEXT_MAX, MESSAGE.max)
  .regex(/^\P{Cc}*$/u, MESSAGE.invalidCharacters);

/** The names one treatment purpose (ids 1–7) shows under, per language. */
export const treatmentPurposeTextsSchema = z.object({
  purpose: codeSchema(TREATMENT_PURPOSE_IDS),
  ptBR: treatmentPurposeText,
  en: treatmentPurposeText,
  es: treatmentPurposeText,
});
export type TreatmentPurposeTexts = z.infer<typeof treatmentPurposeTextsSchema>;

/** Every treatment purpose in id order, with empty texts for those `rows` leave out. */
export function allTreatmentPurposeTexts(
  rows: readonly TreatmentPurposeTexts[],
): TreatmentPurposeTexts[] {
  return TREATMENT_PURPOSE_IDS.map(
    (purpose) =>
      rows.find((row) => row.purpose === purpose) ?? { purpose, ptBR: '', en: '', es: '' },
  );
}

/**
 * `GET`/`POST /settings/treatmentPurposes` (shown in the Service metadata section): the names the
 * service data form shows instead of the built-in purpose labels. POST takes any purposes, each
 * once (left out: no texts); both answer all seven in id order.
 */
export const treatmentPurposesSettingsSchema = z.object({
  treatmentPurposes: z
    .array(treatmentPurposeTextsSchema)
    .max(TREATMENT_PURPOSE_IDS.length, MESSAGE.max)
    .superRefine((rows, ctx) =>
      uniqueBy(
        rows,
        (row) => String(row.purpose),
        (i) => [i, 'purpose'],
        ctx,
      ),
    )
    .transform(allTreatmentPurposeTexts),
});
export type TreatmentPurposesSettings = z.infer<typeof treatmentPurposesSettingsSchema>;
/** The `treatmentPurposes` answer: the stored document with all seven purposes. */
export const treatmentPurposesSettingsViewSchema = z.object({
  treatmentPurposes: z.array(
    z.object({ purpose: z.number().int(), ptBR: z.string(), en: z.string(), es: z.string() }),
  ),
});

/** The admin's name of a purpose in `language`; '' when none is set (the built-in label applies). */
export function treatmentPurposeTextFor(
  texts: readonly TreatmentPurposeTexts[],
  purpose: number,
  language: Language,
): string {
  return texts.find((row) => row.purpose === purpose)?.[language] ?? '';
}

/**
 * `GET /api/v1/metadata/list/serviceData/subsystem` (any signed-in user), what the service data
 * form offers: the active surgical kit manufacturers with their systems, by name, and the
 * treatment purposes' names.
 */
export const serviceDataMetadataSchema = z.object({
  kitManufacturers: z.array(
    z.object({ manufactureName: z.string(), systems: z.array(z.string()) }),
  ),
  treatmentPurposes: treatmentPurposesSettingsViewSchema.shape.treatmentPurposes,
});
export type ServiceDataMetadata = z.infer<typeof serviceDataMetadataSchema>;

/* ───────────────────────────── sleeves ───────────────────────────── */

export const sleeveSettingSchema = z.object({
  /** Absent: a new manufacturer. */
  id: idSchema.optional(),
  sleeveManufacture: z.string().trim().min(1, MESSAGE.required).max(KIT_NAME_MAX, MESSAGE.max),
  /** One amount per case currency, minor units. */
  prices: z.object({ BRL: amountSchema, USD: amountSchema }),
  /** true: soft delete (`deleted_at`); old orders keep it, new ones no longer offer it. */
  deleted: z.boolean().optional(),
});
export type SleeveSetting = z.infer<typeof sleeveSettingSchema>;

/**
 * `POST /settings/sleeves`: rows with an `id` are updated (or soft deleted with `deleted: true`),
 * rows without one created; stored rows left out are unchanged. `GET` answers the live
 * (not deleted) sleeves with their ids, by name, as `{ sleeves: [...] }` without `deleted`.
 * Names of live sleeves are unique regardless of case.
 */
export const sleevesSettingsSchema = z.object({
  sleeves: z
    .array(sleeveSettingSchema)
    .max(500, MESSAGE.max)
    .superRefine((rows, ctx) => {
      const live = rows.map((row, index) => ({ row, index })).filter((x) => !x.row.deleted);
      const seen = new Set<string>();
      for (const { row, index } of live) {
        const key = row.sleeveManufacture.toLowerCase();
        if (seen.has(key)) {
          ctx.addIssue({
            code: 'custom',
            message: MESSAGE.invalid,
            path: [index, 'sleeveManufacture'],
          });
        }
        seen.add(key);
      }
      uniqueBy(
        rows.filter((r) => r.id !== undefined),
        (r) => String(r.id),
        (i) => [i, 'id'],
        ctx,
      );
    }),
});
export type SleevesSettings = z.infer<typeof sleevesSettingsSchema>;
/** The `sleeves` answer: the live sleeves, with their ids. */
export const sleevesSettingsViewSchema = z.object({
  sleeves: z.array(sleeveSettingSchema.omit({ deleted: true }).extend({ id: z.number().int() })),
});
export type SleevesSettingsView = z.infer<typeof sleevesSettingsViewSchema>;

/* ───────────────────────────── shipping ───────────────────────────── */

/**
 * `GET`/`POST /settings/shipping`: the shop's shipping table (`shippingSettingsSchema`), with each
 * shipment type at most once and every motoboy zip range in order (`from` ≤ `to`). GET answers
 * an empty table (nothing offered) when none is stored.
 */
export const shippingSettingsFormSchema = shippingSettingsSchema.superRefine((table, ctx) => {
  uniqueBy(
    table.options,
    (o) => String(o.shipmentType),
    (i) => ['options', i, 'shipmentType'],
    ctx,
  );
  table.motoboyZipRanges.forEach((range, index) => {
    if (range.from > range.to) {
      ctx.addIssue({
        code: 'custom',
        message: MESSAGE.invalid,
        path: ['motoboyZipRanges', index, 'to'],
      });
    }
  });
});

/* ───────────────────────────── announcements ───────────────────────────── */

export const ANNOUNCEMENT_TITLE_MAX = 150;
export const ANNOUNCEMENT_BODY_MAX = 5000;

const announcementText = z.object({
  title: z.string().trim().max(ANNOUNCEMENT_TITLE_MAX, MESSAGE.max),
  body: z.string().trim().max(ANNOUNCEMENT_BODY_MAX, MESSAGE.max),
});
export type AnnouncementText = z.infer<typeof announcementText>;

/** Title and body in every language; a language left empty falls back (see `announcementTextFor`). */
export const announcementTextsSchema = z
  .object({ ptBR: announcementText, en: announcementText, es: announcementText })
  .refine((texts) => LANGUAGES.some((language) => texts[language].title !== ''), {
    message: MESSAGE.required,
    path: ['en', 'title'],
  });

/**
 * `POST /api/v1/profile/announcement` (admin): without `id` creates, with one edits. Only one
 * announcement is active at a time: saving one active deactivates the others in the same
 * transaction. Answers the saved announcement.
 */
export const announcementSaveSchema = z.object({
  id: idSchema.optional(),
  active: z.boolean(),
  texts: announcementTextsSchema,
});
export type AnnouncementSave = z.infer<typeof announcementSaveSchema>;

/** `GET /api/v1/profile/list/announcement` (admin): every announcement, newest first. */
export const adminAnnouncementSchema = z.object({
  id: z.number().int(),
  active: z.boolean(),
  texts: z.object({ ptBR: announcementText, en: announcementText, es: announcementText }),
  createdAt: z.string(),
  modifiedAt: z.string(),
});
export type AdminAnnouncement = z.infer<typeof adminAnnouncementSchema>;
export const adminAnnouncementListSchema = z.array(adminAnnouncementSchema);

/** The order languages are tried in when the reader's has no title: theirs, then en, ptBR, es. */
export function announcementLanguages(language: Language): Language[] {
  return [language, ...(['en', 'ptBR', 'es'] as const).filter((l) => l !== language)];
}

/**
 * What a reader of `language` sees (`GET /api/v1/profile/announcement` answers
 * `{active, title, body}`): the first language, in `announcementLanguages` order, with a title.
 */
export function announcementTextFor(
  texts: Partial<Record<Language, AnnouncementText>>,
  language: Language,
): AnnouncementText {
  for (const candidate of announcementLanguages(language)) {
    const text = texts[candidate];
    if (text && text.title.trim() !== '') return text;
  }
  return { title: '', body: '' };
}
