/** Business constants and limits, and the small numbers of §2 (dialogs, cards, gestures). */

/** Layout breakpoints in px. */
export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024, xl: 1280, xxl: 1536 } as const;

/** A script chunk not loaded within this time raises a chunk-load error. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** Default character limit of the text-area dialog (adjustable per use). */
export const TEXT_DIALOG_DEFAULT_LIMIT = 100;
/** Patient cards truncate names to this many characters. */
export const PATIENT_CARD_NAME_LENGTH = 15;
/** Two taps within this window open the image view. */
export const DOUBLE_TAP_WINDOW_MS = 500;

/** Teeth per jaw in the old service-data layout; the current layout version. */
export const TEETH_PER_JAW = 14;
export const SERVICE_DATA_VERSION = 3;

/** Product defaults. */
export const QTD_MAX_DEFAULT = 1;
export const MANUFACTURE_TIME_DEFAULT_DAYS = 1;

/** Shipping options (ids as stored). */
export const SHIPPING_OPTIONS = { sedex: 0, pac: 1, localWithdraw: 2, motoboy: 3 } as const;
export type ShippingOptionKey = keyof typeof SHIPPING_OPTIONS;
export type ShippingOptionId = (typeof SHIPPING_OPTIONS)[ShippingOptionKey];
export const SHIPPING_OPTION_IDS = Object.values(SHIPPING_OPTIONS) as ShippingOptionId[];
/** A shipment whose type is not chosen yet. */
export const SHIPMENT_TYPE_UNSET = -1;

/** Cancel reasons (ids as stored; 4 and 5 are not used by the spec). */
export const CANCEL_REASONS = {
  abandonment: 1,
  cannotBePlanned: 2,
  wrongServiceUpgrade: 3,
  other: 6,
} as const;
export type CancelReasonKey = keyof typeof CANCEL_REASONS;
export type CancelReasonId = (typeof CANCEL_REASONS)[CancelReasonKey];
export const CANCEL_REASON_IDS = Object.values(CANCEL_REASONS) as CancelReasonId[];

/** Reverse lookup helper for the id-keyed constant maps above. */
export function keyOfId<T extends Record<string, number>>(map: T, id: number): keyof T | undefined {
  return (Object.keys(map) as (keyof T)[]).find((key) => map[key] === id);
}
