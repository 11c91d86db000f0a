import { z } from 'zod';
import { boundedIntSchema, idSchema } from '../common/bounds';
import { personDisplayName } from '../common/person';
import { CURRENCIES, LANGUAGES, currencyForLanguage } from '../i18n/locale';
import { MESSAGE, isRequired, nickNameSchema } from '../forms/rules';
import { isValidDocument, isValidPhone } from '../forms/masks';

/** User profile. */
export const DOCUMENT_TYPES = ['CPF', 'CNPJ', 'none'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const GENDERS = ['female', 'male', 'other', 'none'] as const;

/** Address form limits. */
export const ADDRESS_LIMITS = {
  zipCode: 12,
  country: 60,
  state: 60,
  cityMin: 2,
  cityMax: 60,
  address: 80,
  complement: 40,
} as const;

/**
 * A postal code as typed anywhere in the world: a letter or digit, then letters, digits, spaces or
 * hyphens, at most ADDRESS_LIMITS.zipCode characters in all (e.g. `01310-100`, `SW1A 1AA`).
 */
export const isZipCodeFormat = (value: string): boolean =>
  new RegExp(`^[A-Za-z0-9][A-Za-z0-9 -]{1,${ADDRESS_LIMITS.zipCode - 1}}$`).test(value.trim());

/** A Brazilian zip code (CEP): eight digits, written with or without the dash (`01310-100`). */
const BRAZILIAN_ZIP_CODE = /^\d{5}-?\d{3}$/;
export const isBrazilianZipCode = (value: string): boolean => BRAZILIAN_ZIP_CODE.test(value.trim());

/** A CEP in a path: what the address lookup (a Brazilian service) accepts, else a 400 on the field. */
export const brazilianZipCodeSchema = z
  .string()
  .trim()
  .max(ADDRESS_LIMITS.zipCode, MESSAGE.brazilianZipCode)
  .regex(BRAZILIAN_ZIP_CODE, MESSAGE.brazilianZipCode);

/** An address cut to the address form limits, so a form filled from a lookup is always valid. */
export function fitAddressToLimits(address: DataAddress): DataAddress {
  const clip = (text: string, max: number) => text.trim().slice(0, max);
  return {
    zipCode: clip(address.zipCode, ADDRESS_LIMITS.zipCode),
    country: clip(address.country, ADDRESS_LIMITS.country),
    state: clip(address.state, ADDRESS_LIMITS.state),
    city: clip(address.city, ADDRESS_LIMITS.cityMax),
    address: clip(address.address, ADDRESS_LIMITS.address),
    complement: clip(address.complement, ADDRESS_LIMITS.complement),
  };
}

/** The longest display name; one made of a first and last name is cut to it. */
export const DISPLAY_NAME_MAX = 80;

/** A new account's display name: its first and last name, at most DISPLAY_NAME_MAX long. */
export const displayNameOfNames = (fname: string, lname: string): string =>
  personDisplayName({ fname, lname })
    .slice(0, DISPLAY_NAME_MAX)
    // Never half an emoji at the cut.
    .replace(/[\ud800-\udbff]$/, '')
    .trim();

export const dataGeneralSchema = z.object({
  displayName: z.string().max(DISPLAY_NAME_MAX, MESSAGE.max),
  fname: z.string().max(60, MESSAGE.max),
  lname: z.string().max(60, MESSAGE.max),
  nickName: z.string().max(40, MESSAGE.max),
  email: z.string().max(254, MESSAGE.max),
  avatar: z.string().max(500).nullable(),
});
export type DataGeneral = z.infer<typeof dataGeneralSchema>;

export const mobileSchema = z.object({ number: z.string().max(20), whatsapp: z.boolean() });

export const dataInfoSchema = z.object({
  bio: z.string().max(1000, MESSAGE.max),
  language: z.enum(LANGUAGES),
  currency: z.enum(CURRENCIES),
  location: z.string().max(120, MESSAGE.max),
  platform: z.string().max(120, MESSAGE.max),
  gender: z.string().max(20, MESSAGE.max),
  birthDate: z.string().max(10).nullable(),
  specialization: z.string().max(120, MESSAGE.max),
  mobile: mobileSchema,
  typeOfDocument: z.enum(DOCUMENT_TYPES),
  document: z.string().max(30, MESSAGE.max),
});
export type DataInfo = z.infer<typeof dataInfoSchema>;

export const dataAddressSchema = z.object({
  zipCode: z.string().max(ADDRESS_LIMITS.zipCode, MESSAGE.max),
  country: z.string().max(ADDRESS_LIMITS.country, MESSAGE.max),
  state: z.string().max(ADDRESS_LIMITS.state, MESSAGE.max),
  city: z.string().max(ADDRESS_LIMITS.cityMax, MESSAGE.max),
  address: z.string().max(ADDRESS_LIMITS.address, MESSAGE.max),
  complement: z.string().max(ADDRESS_LIMITS.complement, MESSAGE.max),
});
export type DataAddress = z.infer<typeof dataAddressSchema>;

export const dataCapabilitiesSchema = z.object({
  physicalCreditCard: z.boolean(),
  clinicPartner: z.boolean(),
  instructorDiscount: boundedIntSchema(0, 100),
  instructorId: idSchema.nullable(),
  dentalPrev: z.boolean(),
});
export type DataCapabilities = z.infer<typeof dataCapabilitiesSchema>;

export const userProfileSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  verified_at: z.string().nullable(),
  modifiedAt: z.string(),
  roles: z.array(z.string()),
  internal: z.boolean(),
  dataGeneral: dataGeneralSchema,
  dataInfo: dataInfoSchema,
  dataAddress: dataAddressSchema,
  dataCapabilities: dataCapabilitiesSchema,
  /**
   * The coupon code the user registered with (`/register/{code}`) while it is still theirs to use
   * (`isRegistrationCouponPending`), else null. Answered by the user's own profile read and save
   * (`/profile/get`, `/profile/set`); other answers carrying a profile leave it out.
   */
  registrationCoupon: z.string().nullable().optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/**
 * What a user may change of their own general data. Never roles, internal flag or capabilities;
 * the email is the verified login and is not changed here; the avatar has its own upload flow.
 */
export const dataGeneralUpdateSchema = z
  .object({
    displayName: z.string().trim().min(1, MESSAGE.required).max(DISPLAY_NAME_MAX, MESSAGE.max),
    fname: z.string().trim().min(1, MESSAGE.required).max(60, MESSAGE.max),
    lname: z.string().trim().min(1, MESSAGE.required).max(60, MESSAGE.max),
    nickName: nickNameSchema,
  })
  .partial()
  .strict();

/** A new account's info: its language, the currency of that language, nothing else filled. */
export function emptyDataInfo(language: (typeof LANGUAGES)[number]): DataInfo {
  return {
    bio: '',
    language,
    currency: currencyForLanguage(language),
    location: '',
    platform: '',
    gender: '',
    birthDate: null,
    specialization: '',
    mobile: { number: '', whatsapp: false },
    typeOfDocument: 'none',
    document: '',
  };
}

/** A new account has no capabilities until an admin grants them. */
export const EMPTY_DATA_CAPABILITIES: Readonly<DataCapabilities> = Object.freeze({
  physicalCreditCard: false,
  clinicPartner: false,
  instructorDiscount: 0,
  instructorId: null,
  dentalPrev: false,
});

/** Address as a form submits it: address form rules. */
export const dataAddressFormSchema = z.object({
  zipCode: z.string().trim().min(1, MESSAGE.required).max(ADDRESS_LIMITS.zipCode, MESSAGE.max),
  country: z.string().trim().min(1, MESSAGE.required).max(ADDRESS_LIMITS.country, MESSAGE.max),
  state: z.string().trim().min(1, MESSAGE.required).max(ADDRESS_LIMITS.state, MESSAGE.max),
  city: z
    .string()
    .trim()
    .min(ADDRESS_LIMITS.cityMin, MESSAGE.min)
    .max(ADDRESS_LIMITS.cityMax, MESSAGE.max),
  address: z.string().trim().min(1, MESSAGE.required).max(ADDRESS_LIMITS.address, MESSAGE.max),
  complement: z.string().trim().max(ADDRESS_LIMITS.complement, MESSAGE.max),
});

/** General data valid only if email, nickName, displayName, fname, lname are set. */
export function isGeneralDataValid(data: Partial<DataGeneral> | null | undefined): boolean {
  if (!data) return false;
  return [data.email, data.nickName, data.displayName, data.fname, data.lname].every(isRequired);
}

/** Info valid when currency and document are set. */
export function isInfoDataValid(data: Partial<DataInfo> | null | undefined): boolean {
  if (!data) return false;
  return isRequired(data.currency) && isRequired(data.document);
}

/** Address valid when zipCode, country, state, city, address are set (complement optional). */
export function isAddressDataValid(data: Partial<DataAddress> | null | undefined): boolean {
  if (!data) return false;
  return [data.zipCode, data.country, data.state, data.city, data.address].every(isRequired);
}

/** Complete when general data and address are valid; otherwise forced to profile-settings. */
export function isProfileComplete(
  profile:
    | { dataGeneral?: Partial<DataGeneral> | null; dataAddress?: Partial<DataAddress> | null }
    | null
    | undefined,
): boolean {
  return (
    !!profile && isGeneralDataValid(profile.dataGeneral) && isAddressDataValid(profile.dataAddress)
  );
}

/** A mobile number as the Info tab submits it: `(xx) xxxxx-xxxx` (10 or 11 digits) or empty. */
export const mobileFormSchema = z.object({
  number: z
    .string()
    .trim()
    .max(20, MESSAGE.max)
    .refine((value) => value === '' || isValidPhone(value), MESSAGE.invalidPhone),
  whatsapp: z.boolean(),
});

/**
 * The Info tab (`profile/set` dataInfo, partial). The document is checked against its type
 * (CPF/CNPJ check digits; 'none' free text up to 30) whenever both are sent.
 */
export const dataInfoUpdateSchema = dataInfoSchema
  .extend({
    birthDate: z.iso.date().nullable(),
    mobile: mobileFormSchema,
    document: z.string().trim().max(30, MESSAGE.max),
  })
  .partial()
  .strict()
  .superRefine((info, ctx) => {
    if (
      info.typeOfDocument &&
      info.document &&
      !isValidDocument(info.typeOfDocument, info.document)
    ) {
      ctx.addIssue({ code: 'custom', path: ['document'], message: MESSAGE.invalidDocument });
    }
  });
export type DataInfoUpdate = z.infer<typeof dataInfoUpdateSchema>;
