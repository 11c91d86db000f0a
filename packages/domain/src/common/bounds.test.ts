import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  addServiceBodySchema,
  caseListParamsSchema,
  casePlannerBodySchema,
  caseUserBodySchema,
} from '../cases/case-api';
import { chatPageQuerySchema } from '../chat/chat-api';
import { brazilianZipCodeSchema, isBrazilianZipCode } from '../profile/profile';
import { checkoutRequestSchema } from '../shop/checkout';
import { couponFormSchema } from '../shop/coupon';
import { shopProductsQuerySchema } from '../shop/shop-api';
import {
  amountSchema,
  boundedIntSchema,
  codeSchema,
  idOrNewParamSchema,
  idParamSchema,
  idSchema,
  INT32_MAX,
  PAGE_MAX,
  pageSchema,
  pageSizeSchema,
} from './bounds';

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('number bounds', () => {
  it.each<[string, z.ZodType, unknown, boolean]>([
    ['id', idSchema, 1, true],
    ['id', idSchema, INT32_MAX, true],
    ['id', idSchema, INT32_MAX + 1, false],
    ['id', idSchema, 0, false],
    ['id', idSchema, -1, false],
    ['id', idSchema, 1.5, false],
    ['id', idSchema, '7', false],
    ['id', idSchema, Number.MAX_SAFE_INTEGER, false],
    ['id param', idParamSchema, '42', true],
    ['id param', idParamSchema, String(INT32_MAX), true],
    ['id param', idParamSchema, String(INT32_MAX + 1), false],
    ['id param', idParamSchema, '99999999999999999999', false],
    ['id param', idParamSchema, '0', false],
    ['id param', idParamSchema, '-3', false],
    ['id param', idParamSchema, '2.5', false],
    ['id param', idParamSchema, 'abc', false],
    ['id or new param', idOrNewParamSchema, '0', true],
    ['id or new param', idOrNewParamSchema, String(INT32_MAX + 1), false],
    ['page', pageSchema, '0', true],
    ['page', pageSchema, String(PAGE_MAX), true],
    ['page', pageSchema, String(PAGE_MAX + 1), false],
    ['page', pageSchema, '-1', false],
    ['page size 50', pageSizeSchema(50), '50', true],
    ['page size 50', pageSizeSchema(50), '51', false],
    ['page size 50', pageSizeSchema(50), '0', false],
    ['amount', amountSchema, 0, true],
    ['amount', amountSchema, INT32_MAX, true],
    ['amount', amountSchema, INT32_MAX + 1, false],
    ['amount', amountSchema, -1, false],
    ['amount', amountSchema, 10.5, false],
    ['whole number from 1', boundedIntSchema(1), INT32_MAX, true],
    ['whole number from 1', boundedIntSchema(1), INT32_MAX + 1, false],
    ['whole number 0..90', boundedIntSchema(0, 90), 91, false],
    ['whole number up to past int32', boundedIntSchema(0, 2 ** 40), INT32_MAX + 1, false],
    ['code of 1, 2, 5', codeSchema([1, 2, 5]), 5, true],
    ['code of 1, 2, 5', codeSchema([1, 2, 5]), 3, false],
    ['code of 1, 2, 5', codeSchema([1, 2, 5]), '5', false],
    ['code of 1, 2, 5', codeSchema([1, 2, 5]), INT32_MAX + 1, false],
  ])('%s accepts %j → %s', (_name, schema, value, expected) => {
    expect(accepts(schema, value)).toBe(expected);
  });

  it('names the catalogue message of each refusal', () => {
    const messages = (value: unknown) =>
      idSchema.safeParse(value).error?.issues.map((issue) => issue.message);
    expect(messages(0)).toEqual(['validation.min']);
    expect(messages(INT32_MAX + 1)).toEqual(['validation.max']);
    expect(messages(1.5)).toEqual(['validation.numeric']);
    expect(codeSchema([1, 2]).safeParse(3).error?.issues[0]?.message).toBe('validation.invalid');
  });
});

describe('the API schemas take their numbers from the bounds', () => {
  const past = INT32_MAX + 1;
  const item = {
    cartProductId: 1,
    productPlanningId: 1,
    productManufactureId: null,
    qtdOpt: 1,
    quantity: 1,
    planningExtraData: null,
    manufactureData: null,
  };
  const checkout = {
    caseId: null,
    items: [item],
    shipment: null,
    coupon: null,
    paymentMethod: 'pix',
    currency: 'BRL',
  };
  const coupon = {
    name: 'WELCOME',
    bind2User: null,
    bind2Product: null,
    bind2Category: null,
    maxUsage: null,
    coupomType: 2,
    value: 500,
    oncePerUser: false,
    applyOnManufactureService: false,
    active: true,
    expireAt: null,
  };
  it.each<[string, z.ZodType, unknown, boolean]>([
    ['services/add productId', addServiceBodySchema, { productId: INT32_MAX }, true],
    ['services/add productId', addServiceBodySchema, { productId: past }, false],
    ['case users userId', caseUserBodySchema, { userId: past, triggerNotification: true }, false],
    ['case planner plannerId', casePlannerBodySchema, { plannerId: past }, false],
    ['case planner serviceIds', casePlannerBodySchema, { plannerId: 1, serviceIds: [past] }, false],
    ['case list page', caseListParamsSchema, { filter: 'new', page: String(PAGE_MAX + 1) }, false],
    ['chat page before', chatPageQuerySchema, { before: String(past) }, false],
    ['checkout', checkoutRequestSchema, checkout, true],
    ['checkout caseId', checkoutRequestSchema, { ...checkout, caseId: past }, false],
    [
      'checkout item product',
      checkoutRequestSchema,
      { ...checkout, items: [{ ...item, cartProductId: past }] },
      false,
    ],
    [
      'checkout item quantity',
      checkoutRequestSchema,
      { ...checkout, items: [{ ...item, quantity: past }] },
      false,
    ],
    ['checkout items', checkoutRequestSchema, { ...checkout, items: Array(31).fill(item) }, false],
    ['coupon', couponFormSchema, coupon, true],
    ['coupon value', couponFormSchema, { ...coupon, value: past }, false],
    ['coupon user', couponFormSchema, { ...coupon, bind2User: past }, false],
    ['coupon max usage', couponFormSchema, { ...coupon, maxUsage: past }, false],
    ['shop categories', shopProductsQuerySchema, { category: `1,${past}` }, false],
    ['shop categories', shopProductsQuerySchema, { category: '1,2' }, true],
  ])('%s: %j → %s', (_name, schema, value, expected) => {
    expect(accepts(schema, value)).toBe(expected);
  });
});

describe('Brazilian zip codes (CEP)', () => {
  it.each([
    ['01310-100', true],
    ['01310100', true],
    [' 01310-100 ', true],
    ['0131-0100', false],
    ['013101000', false],
    ['1310100', false],
    ['SW1A 1AA', false],
    ['01310_100', false],
    ['', false],
  ])('%j → %s', (zip, expected) => {
    expect(isBrazilianZipCode(zip)).toBe(expected);
    expect(brazilianZipCodeSchema.safeParse(zip).success).toBe(expected);
  });

  it('refuses with the zip code message', () => {
    expect(brazilianZipCodeSchema.safeParse('123').error?.issues[0]?.message).toBe(
      'validation.brazilianZipCode',
    );
  });
});
