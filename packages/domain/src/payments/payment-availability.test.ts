import { describe, expect, it } from 'vitest';
import {
  currenciesWithoutOnlineMethod,
  currenciesWithPaymentMethods,
  paymentMethodsUnavailableReason,
} from './payment-availability';
import type { ConfiguredPaymentMethods } from './payment';

const NONE: ConfiguredPaymentMethods = { pix: false, paypal: false, pagseguro: false };
const PIX_ONLY: ConfiguredPaymentMethods = { pix: true, paypal: false, pagseguro: false };
const PAGBANK_ONLY: ConfiguredPaymentMethods = { pix: false, paypal: false, pagseguro: true };
const PAYPAL_ONLY: ConfiguredPaymentMethods = { pix: false, paypal: true, pagseguro: false };
const ALL: ConfiguredPaymentMethods = { pix: true, paypal: true, pagseguro: true };
const CARD_MACHINE_OFF: ConfiguredPaymentMethods = { ...NONE, physical: false, dentalPrev: false };

const CLIENT = { physicalCreditCard: false, dentalPrev: false };
const CARD_MACHINE = { physicalCreditCard: true, dentalPrev: false };
const INSURANCE = { physicalCreditCard: false, dentalPrev: true };

describe('currenciesWithoutOnlineMethod', () => {
  it.each([
    ['nothing configured', NONE, ['BRL', 'USD']],
    ['Pix only (reais)', PIX_ONLY, ['USD']],
    ['PagBank only (reais)', PAGBANK_ONLY, ['USD']],
    ['PayPal only (both)', PAYPAL_ONLY, []],
    ['everything', ALL, []],
  ] as const)('%s → %j', (_name, configured, expected) => {
    expect(currenciesWithoutOnlineMethod(configured)).toEqual(expected);
  });
});

describe('currenciesWithPaymentMethods and paymentMethodsUnavailableReason', () => {
  it.each([
    // [name, capabilities, currency, configured, usable currencies, reason or null]
    ['a USD client on a Pix-only install', CLIENT, 'USD', PIX_ONLY, ['BRL'], 'currency'],
    ['a BRL client on a Pix-only install', CLIENT, 'BRL', PIX_ONLY, ['BRL'], null],
    ['a BRL client on a PayPal-only install', CLIENT, 'BRL', PAYPAL_ONLY, ['BRL', 'USD'], null],
    ['a USD client on a PayPal-only install', CLIENT, 'USD', PAYPAL_ONLY, ['BRL', 'USD'], null],
    ['a client on an install with nothing', CLIENT, 'BRL', NONE, [], 'none'],
    ['a USD client with the card machine', CARD_MACHINE, 'USD', NONE, ['BRL', 'USD'], null],
    ['a USD client with insurance', INSURANCE, 'USD', PIX_ONLY, ['BRL', 'USD'], null],
    [
      'a card-machine client when the card machine is switched off',
      CARD_MACHINE,
      'USD',
      CARD_MACHINE_OFF,
      [],
      'none',
    ],
  ] as const)('%s', (_name, capabilities, currency, configured, usable, reason) => {
    expect(currenciesWithPaymentMethods(capabilities, configured)).toEqual(usable);
    const unavailable = paymentMethodsUnavailableReason(capabilities, currency, configured);
    expect(unavailable).toEqual(reason === null ? null : { reason, currenciesWithMethods: usable });
  });
});
