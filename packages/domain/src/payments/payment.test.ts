import { describe, expect, it } from 'vitest';
import {
  availablePaymentMethods,
  canConfirmReceipt,
  canRequestCancel,
  canSubmitReceipt,
  cancelState,
  CORE_PAYMENT_STATUSES,
  isCancelValid,
  isPaidOrPrePaid,
  isReceiptFileAllowed,
  isWebPayment,
  PAYMENT_STATUSES,
  RECEIPT_MAX_BYTES,
  receiptJustificationSchema,
  servicesDeletedByCancel,
} from './payment';
import { isInvoiceValid, invoiceCustomerFormSchema } from './invoice';
import { SAMPLE_ADDRESS } from '../test-fixtures';

describe('payment statuses and methods', () => {
  it('has the eleven statuses, four in the core flow', () => {
    expect(PAYMENT_STATUSES).toHaveLength(11);
    expect(
      CORE_PAYMENT_STATUSES.every((s) => (PAYMENT_STATUSES as readonly string[]).includes(s)),
    ).toBe(true);
  });
  it.each([
    ['paid', true],
    ['pre_paid', true],
    ['awaiting_payment', false],
    ['available', false],
    ['cancelled', false],
  ])('%s settled → %s', (status, ok) => expect(isPaidOrPrePaid(status)).toBe(ok));
  it.each([
    ['paypal', true],
    ['pagseguro', true],
    ['pix', false],
    ['physical', false],
    ['dentalPrev', false],
  ])('%s is a web payment → %s', (method, web) => expect(isWebPayment(method)).toBe(web));

  const all = { pix: true, paypal: true, pagseguro: true };
  const none = { pix: false, paypal: false, pagseguro: false };
  it.each([
    [{ physicalCreditCard: false, dentalPrev: false }, 'BRL', all, ['pix', 'paypal', 'pagseguro']],
    [
      { physicalCreditCard: true, dentalPrev: false },
      'BRL',
      all,
      ['pix', 'physical', 'paypal', 'pagseguro'],
    ],
    [{ physicalCreditCard: false, dentalPrev: true }, 'USD', all, ['dentalPrev', 'paypal']],
    [
      { physicalCreditCard: true, dentalPrev: true },
      'USD',
      all,
      ['physical', 'dentalPrev', 'paypal'],
    ],
    [{ physicalCreditCard: false, dentalPrev: false }, 'BRL', none, []],
    [{ physicalCreditCard: true, dentalPrev: true }, 'BRL', none, ['physical', 'dentalPrev']],
    [
      { physicalCreditCard: false, dentalPrev: false },
      'BRL',
      { pix: true, paypal: false, pagseguro: false },
      ['pix'],
    ],
    [
      { physicalCreditCard: false, dentalPrev: false },
      'USD',
      { pix: true, paypal: false, pagseguro: true },
      [],
    ],
    // Switched off in the payments settings: never offered, whatever the capabilities.
    [
      { physicalCreditCard: true, dentalPrev: true },
      'BRL',
      { ...all, physical: false, dentalPrev: true },
      ['pix', 'dentalPrev', 'paypal', 'pagseguro'],
    ],
    [
      { physicalCreditCard: true, dentalPrev: true },
      'BRL',
      { ...none, physical: true, dentalPrev: false },
      ['physical'],
    ],
    [
      { physicalCreditCard: false, dentalPrev: false },
      'BRL',
      { ...all, physical: true, dentalPrev: true },
      ['pix', 'paypal', 'pagseguro'],
    ],
  ] as const)('%j %s %j → %j', (capabilities, currency, configured, methods) =>
    expect(availablePaymentMethods(capabilities, currency, configured)).toEqual(methods),
  );
});

describe('receipt', () => {
  it.each([
    [{ receiptId: null, paymentStatus: 'awaiting_payment' }, true],
    [{ receiptId: 3, paymentStatus: 'awaiting_payment' }, false],
    [{ receiptId: null, paymentStatus: 'paid' }, false],
    [{ receiptId: null, paymentStatus: 'under_analysis' }, false],
  ])('%j may submit → %s', (transaction, ok) => expect(canSubmitReceipt(transaction)).toBe(ok));

  it.each([
    [4124672, true],
    [4124673, false],
    [1, true],
    [0, false],
  ])('file of %i bytes allowed → %s', (size, ok) =>
    expect(isReceiptFileAllowed({ size })).toBe(ok),
  );
  it('the limit is 4124672 bytes', () => expect(RECEIPT_MAX_BYTES).toBe(4124672));

  it.each([
    [{ file: null, justification: '' }, false],
    [{ file: null, justification: '   ' }, false],
    [{ file: null, justification: 'paid by Pix at 10:00' }, true],
    [{ file: { size: 1000 }, justification: '' }, true],
    [{ file: { size: RECEIPT_MAX_BYTES + 1 }, justification: 'x' }, false],
    [{ file: null, justification: 'x'.repeat(75) }, true],
    [{ file: null, justification: 'x'.repeat(76) }, false],
  ])('%j confirm enabled → %s', (form, ok) => expect(canConfirmReceipt(form)).toBe(ok));

  it('justification at most 75 characters', () => {
    expect(receiptJustificationSchema.safeParse({ justification: 'x'.repeat(75) }).success).toBe(
      true,
    );
    expect(receiptJustificationSchema.safeParse({ justification: 'x'.repeat(76) }).success).toBe(
      false,
    );
  });
});

describe('cancel', () => {
  it.each([
    [{ reasonId: 1, description: 'patient gave up' }, true],
    [{ reasonId: 6, description: 'other' }, true],
    [{ reasonId: 4, description: 'x' }, false],
    [{ reasonId: null, description: 'x' }, false],
    [{ reasonId: 2, description: '' }, false],
    [{ reasonId: 2, description: '  ' }, false],
    [{ description: 'x' }, false],
  ])('%j → %s', (value, ok) => expect(isCancelValid(value)).toBe(ok));

  it.each([
    [null, 'none'],
    [{ requestAt: '2024-01-01', authAt: null }, 'requested'],
    [{ requestAt: '2024-01-01', authAt: '2024-01-02' }, 'authorized'],
  ] as const)('%j → %s', (cancel, state) => expect(cancelState(cancel)).toBe(state));

  it.each([
    [{ paymentStatus: 'paid', cancelId: null }, true],
    [{ paymentStatus: 'paid', cancelId: 4 }, false],
    [{ paymentStatus: 'cancelled', cancelId: null }, false],
  ])('%j may request → %s', (transaction, ok) => expect(canRequestCancel(transaction)).toBe(ok));

  it('authorising deletes the services paid by that transaction', () => {
    const services = [
      { id: 1, transactionId: 10 },
      { id: 2, transactionId: 11 },
      { id: 3, transactionId: 10 },
      { id: 4, transactionId: null },
    ];
    expect(servicesDeletedByCancel(services, 10)).toEqual([1, 3]);
  });
});

const address = SAMPLE_ADDRESS;

describe('invoice valid only with name, document type, document and a valid address', () => {
  const invoice = {
    customerName: 'Clínica Sorriso',
    documentType: 'CNPJ',
    document: '11.222.333/0001-81',
    address,
  };
  it.each([
    ['complete', invoice, true],
    ['CPF', { ...invoice, documentType: 'CPF', document: '529.982.247-25' }, true],
    ['foreign id', { ...invoice, documentType: 'id', document: 'P123456' }, true],
    ['no name', { ...invoice, customerName: ' ' }, false],
    ['no type', { ...invoice, documentType: '' }, false],
    ['unknown type', { ...invoice, documentType: 'RG' }, false],
    ['no document', { ...invoice, document: '' }, false],
    ['bad check digits', { ...invoice, document: '11.222.333/0001-80' }, false],
    ['address without city', { ...invoice, address: { ...address, city: '' } }, false],
    ['no address', { ...invoice, address: null }, false],
    ['missing', null, false],
  ])('%s → %s', (_, value, ok) => expect(isInvoiceValid(value)).toBe(ok));

  it('the form schema reports a bad document on the document field', () => {
    const result = invoiceCustomerFormSchema.safeParse({
      ...invoice,
      documentType: 'CPF',
      document: '111.111.111-11',
      email: '',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['document']);
    expect(
      invoiceCustomerFormSchema.safeParse({ ...invoice, email: 'fin@clinic.com' }).success,
    ).toBe(true);
  });
});
