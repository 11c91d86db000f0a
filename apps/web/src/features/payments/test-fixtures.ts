import type { CaseTransactions, CheckoutBreakdown, TransactionView } from '@dentflow/domain';

/** Test data in the contract's shapes (transaction-api.ts). */
export function breakdown(overrides: Partial<CheckoutBreakdown> = {}): CheckoutBreakdown {
  return {
    currency: 'BRL',
    lines: [
      {
        cartProductId: 1,
        name: 'Surgical guide planning',
        quantity: 1,
        planningPrice: 123_456,
        manufacturePrice: 0,
        sleevesPrice: 0,
        comboDiscount: 0,
        lineDiscount: 0,
      },
    ],
    planningPrice: 123_456,
    manufacturePrice: 0,
    sleevesPrice: 0,
    subtotal: 123_456,
    comboDiscount: 0,
    couponDiscount: 0,
    instructorDiscount: 0,
    shippingFee: 0,
    total: 123_456,
    coupon: null,
    ...overrides,
  };
}

export function transactionView(overrides: Partial<TransactionView> = {}): TransactionView {
  return {
    id: 501,
    caseId: 42,
    payer: { id: 7, displayName: 'Ana Souza' },
    reference: 'DF-42-501',
    paymentMethod: 'pix',
    paymentStatus: 'awaiting_payment',
    currency: 'BRL',
    priceServices: 123_456,
    priceShipping: 0,
    priceTotal: 123_456,
    breakdown: breakdown(),
    shipment: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    modifiedAt: '2026-11-20T10:00:00.000Z',
    paidAt: null,
    gatewayStatus: null,
    paymentLink: null,
    pixCode: null,
    pixTxid: null,
    receipt: null,
    invoice: null,
    cancel: null,
    serviceIds: [11],
    actions: [],
    ...overrides,
  };
}

export function caseTransactions(overrides: Partial<CaseTransactions> = {}): CaseTransactions {
  return { items: [], unpaidServiceIds: [], paymentMethods: [], remaining: null, ...overrides };
}
