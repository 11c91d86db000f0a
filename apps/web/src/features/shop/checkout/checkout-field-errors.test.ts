import { describe, expect, it } from 'vitest';
import { emptyShipment, SHIPPING_OPTIONS, type CartItem, type Shipment } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { caseDetail } from '../../cases/test-fixtures';
import { comboProduct, shopProduct } from '../test-fixtures';
import type { OrderTarget } from '../components/order-for-case';
import {
  cartStepBlocked,
  checkoutFieldErrors,
  fieldMessage,
  PATIENT_PATH,
  type CheckoutFieldInput,
} from './checkout-field-errors';

/** Messages as `namespace:key`, errors by their message: the test reads which rule spoke. */
const texts = {
  t: (key: string) => key,
  errorMessage: (error: unknown) => `failed: ${(error as Error).message}`,
};

const item = (patch: Partial<CartItem> = {}): CartItem => ({
  cartProductId: 1,
  productPlanningId: 1,
  productManufactureId: null,
  qtdOpt: 1,
  quantity: 1,
  planningExtraData: null,
  manufactureData: null,
  ...patch,
});

const planning = shopProduct({ id: 1 });
/** A combo whose printed part (id 20) ships and needs a sleeve manufacturer and quantity. */
const kit = comboProduct({ id: 20, enableKit: true, enableSleeve: true, shipping: true });
const kitItem = (manufactureData: CartItem['manufactureData']) =>
  item({ cartProductId: 2, productPlanningId: 30, productManufactureId: 20, manufactureData });

const withdrawnLocally: Shipment = {
  addressType: 0,
  address: { ...emptyShipment().address },
  shipmentType: SHIPPING_OPTIONS.localWithdraw,
  shipmentOption: { fee: 0, days: 0 },
};

const target = (patch: Partial<OrderTarget>): OrderTarget => ({
  caseId: 42,
  detail: undefined,
  loading: false,
  error: null,
  ...patch,
});

const input = (patch: Partial<CheckoutFieldInput>): CheckoutFieldInput => ({
  caseMode: 'new',
  patient: { fname: 'Maria', lname: 'Silva' },
  orderTarget: null,
  caseId: null,
  items: [item()],
  shipment: emptyShipment(),
  products: new Map([[planning.id, planning]]),
  ...patch,
});

describe('checkoutFieldErrors', () => {
  it.each<[string, Partial<CheckoutFieldInput>, Record<string, string>]>([
    ['a new case with its patient and a planning-only cart', {}, {}],
    [
      'a new case without the patient',
      { patient: { fname: '  ', lname: '' } },
      {
        [`${PATIENT_PATH}.fname`]: 'errors:validation.required',
        [`${PATIENT_PATH}.lname`]: 'errors:validation.required',
      },
    ],
    [
      'an existing case not chosen yet',
      { caseMode: 'existing', patient: { fname: '', lname: '' } },
      { caseId: 'errors:validation.required' },
    ],
    ['an existing case chosen', { caseMode: 'existing', caseId: 42 }, {}],
    [
      'the ordered-for case still loading',
      { caseMode: 'existing', orderTarget: target({ loading: true }) },
      { caseId: 'shop:forCase.loading' },
    ],
    [
      'the ordered-for case that failed to load',
      {
        caseMode: 'existing',
        orderTarget: target({ error: new ApiError('Case not found', 'NOT_FOUND', 404) }),
      },
      { caseId: 'failed: Case not found' },
    ],
    [
      'the ordered-for case the owner may no longer order for',
      { caseMode: 'existing', orderTarget: target({ detail: caseDetail({ can: ['edit'] }) }) },
      { caseId: 'shop:forCase.notOrderable' },
    ],
    [
      'the ordered-for case open to orders',
      { caseMode: 'existing', orderTarget: target({ detail: caseDetail({ can: ['order'] }) }) },
      {},
    ],
    [
      'a kit without sleeve manufacturer and quantity, and no shipment',
      {
        items: [item(), kitItem({ sleevesManufacture: null, sleevesQtd: 0 })],
        products: new Map([
          [planning.id, planning],
          [kit.id, kit],
        ]),
      },
      {
        'items.1.manufactureData.sleevesManufacture': 'domain:checkoutProblems.sleeveManufacturer',
        'items.1.manufactureData.sleevesQtd': 'domain:checkoutProblems.sleeveQuantity',
        shipment: 'domain:checkoutProblems.shipment',
      },
    ],
    [
      'a complete kit withdrawn locally',
      {
        items: [kitItem({ sleevesManufacture: 5, sleevesQtd: 2 })],
        shipment: withdrawnLocally,
        products: new Map([[kit.id, kit]]),
      },
      {},
    ],
    [
      'a kit whose product is not loaded yet (nothing to check against)',
      { items: [kitItem(null)], products: new Map() },
      {},
    ],
  ])('%s', (_name, patch, expected) => {
    expect(checkoutFieldErrors(input(patch), texts)).toEqual(expected);
  });
});

describe('cartStepBlocked', () => {
  it.each<[Record<string, string>, boolean]>([
    [{}, false],
    [{ shipment: 'missing' }, false],
    [{ caseId: 'required' }, true],
    [{ shipment: 'missing', 'items.0.manufactureData.sleevesQtd': 'required' }, true],
  ])('%j → %s', (errors, blocked) => {
    expect(cartStepBlocked(errors)).toBe(blocked);
  });
});

describe('fieldMessage', () => {
  const errors = {
    caseId: 'choose a case',
    [`${PATIENT_PATH}.fname`]: 'first name',
    'items.1.manufactureData.sleevesQtd': 'quantity',
  };
  it.each<[string[], string | undefined]>([
    [['caseId'], 'choose a case'],
    [[PATIENT_PATH], 'first name'],
    [['items.1.manufactureData'], 'quantity'],
    [['items.2', 'caseId'], 'choose a case'],
    [['items.1.manufactureData.sleevesManufacture'], undefined],
    [['case'], undefined],
  ])('%j → %s', (paths, message) => {
    expect(fieldMessage(errors, paths)).toBe(message);
  });
});
