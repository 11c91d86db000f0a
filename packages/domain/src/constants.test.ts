import { describe, expect, it } from 'vitest';
import {
  BREAKPOINTS,
  CANCEL_REASONS,
  CHUNK_LOAD_TIMEOUT_MS,
  DOUBLE_TAP_WINDOW_MS,
  keyOfId,
  MANUFACTURE_TIME_DEFAULT_DAYS,
  PATIENT_CARD_NAME_LENGTH,
  QTD_MAX_DEFAULT,
  SERVICE_DATA_VERSION,
  SHIPMENT_TYPE_UNSET,
  SHIPPING_OPTIONS,
  TEETH_PER_JAW,
  TEXT_DIALOG_DEFAULT_LIMIT,
} from './constants';
import { RECEIPT_DESCRIPTION_MAX, RECEIPT_MAX_BYTES } from './payments/payment';
import { AVATAR_MAX_BYTES } from './profile/avatar';
import { ADDRESS_LIMITS } from './profile/profile';
import { PASSWORD_MIN_LENGTH } from './forms/rules';
import { TREATMENT_PURPOSES } from './cases/service-data';

describe('constants', () => {
  it.each([
    ['breakpoint sm', BREAKPOINTS.sm, 640],
    ['breakpoint md', BREAKPOINTS.md, 768],
    ['breakpoint lg', BREAKPOINTS.lg, 1024],
    ['breakpoint xl', BREAKPOINTS.xl, 1280],
    ['breakpoint xxl', BREAKPOINTS.xxl, 1536],
    ['chunk time-out', CHUNK_LOAD_TIMEOUT_MS, 120_000],
    ['text dialog limit', TEXT_DIALOG_DEFAULT_LIMIT, 100],
    ['password min', PASSWORD_MIN_LENGTH, 8],
    ['receipt file', RECEIPT_MAX_BYTES, 4124672],
    ['receipt description', RECEIPT_DESCRIPTION_MAX, 75],
    ['avatar', AVATAR_MAX_BYTES, 800 * 1024],
    ['city min', ADDRESS_LIMITS.cityMin, 2],
    ['city max', ADDRESS_LIMITS.cityMax, 60],
    ['address', ADDRESS_LIMITS.address, 80],
    ['complement', ADDRESS_LIMITS.complement, 40],
    ['teeth per jaw', TEETH_PER_JAW, 14],
    ['service data version', SERVICE_DATA_VERSION, 3],
    ['qtdMax default', QTD_MAX_DEFAULT, 1],
    ['manufactureTime default', MANUFACTURE_TIME_DEFAULT_DAYS, 1],
    ['patient card name', PATIENT_CARD_NAME_LENGTH, 15],
    ['double tap', DOUBLE_TAP_WINDOW_MS, 500],
    ['shipment type default', SHIPMENT_TYPE_UNSET, -1],
  ])('%s = %i', (_, value, expected) => expect(value).toBe(expected));

  it('shipping options, cancel reasons and treatment purposes keep their ids', () => {
    expect(SHIPPING_OPTIONS).toEqual({ sedex: 0, pac: 1, localWithdraw: 2, motoboy: 3 });
    expect(CANCEL_REASONS).toEqual({
      abandonment: 1,
      cannotBePlanned: 2,
      wrongServiceUpgrade: 3,
      other: 6,
    });
    expect(Object.values(TREATMENT_PURPOSES)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(keyOfId(CANCEL_REASONS, 6)).toBe('other');
    expect(keyOfId(CANCEL_REASONS, 4)).toBeUndefined();
  });
});
