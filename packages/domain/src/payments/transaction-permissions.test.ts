import { describe, expect, it } from 'vitest';
import {
  availableTransactionActions,
  transactionRelation,
  type TransactionFacts,
} from './transaction-permissions';

const facts = (overrides: Partial<TransactionFacts> = {}): TransactionFacts => ({
  paymentMethod: 'pix',
  paymentStatus: 'awaiting_payment',
  receiptId: null,
  receiptPending: false,
  cancel: null,
  hasInvoice: false,
  invoiceNumber: null,
  hasGatewayOrder: false,
  ...overrides,
});

const admin = { roles: ['admin'] };
const supervisor = { roles: ['supervisor'] };
const doctor = { roles: ['doctor'] };

describe('transactionRelation', () => {
  const tx = { payerId: 10, caseOwnerId: 11 };
  it.each([
    [{ userId: 1, roles: ['admin'] }, 'staff'],
    [{ userId: 2, roles: ['supervisor'] }, 'staff'],
    [{ userId: 10, roles: ['doctor'] }, 'client'],
    [{ userId: 11, roles: ['clinic'] }, 'client'],
    [{ userId: 12, roles: ['planner'] }, null],
    [{ userId: 13, roles: ['printer'] }, null],
    [{ userId: 14, roles: ['partner'] }, null],
    [{ userId: 15, roles: ['instructor'] }, null],
    [{ userId: 16, roles: ['doctor'] }, null],
  ] as const)('%j → %s', (viewer, relation) =>
    expect(transactionRelation(viewer, tx)).toBe(relation),
  );
});

describe('availableTransactionActions', () => {
  it.each([
    // Pix waiting: the client pays, sends a receipt, asks an invoice, may cancel.
    [
      'pix awaiting, client',
      doctor,
      'client',
      facts(),
      ['pay', 'submitReceipt', 'setInvoiceCustomer', 'cancel'],
    ],
    ['pix awaiting, supervisor', supervisor, 'staff', facts(), ['setInvoiceCustomer', 'cancel']],
    [
      'pix with a pending receipt, supervisor',
      supervisor,
      'staff',
      facts({ receiptId: 3, receiptPending: true }),
      ['authReceipt', 'setInvoiceCustomer', 'cancel'],
    ],
    [
      'pix with a pending receipt, client',
      doctor,
      'client',
      facts({ receiptId: 3, receiptPending: true }),
      ['pay', 'setInvoiceCustomer', 'cancel'],
    ],
    [
      'card machine pre-paid, admin',
      admin,
      'staff',
      facts({ paymentMethod: 'physical', paymentStatus: 'pre_paid' }),
      ['setInvoiceCustomer', 'checkPhysicalPayment', 'cancel'],
    ],
    [
      'card machine pre-paid, supervisor',
      supervisor,
      'staff',
      facts({ paymentMethod: 'physical', paymentStatus: 'pre_paid' }),
      ['setInvoiceCustomer', 'cancel'],
    ],
    [
      'insurance pre-paid, client',
      doctor,
      'client',
      facts({ paymentMethod: 'dentalPrev', paymentStatus: 'pre_paid' }),
      ['setInvoiceCustomer', 'cancel'],
    ],
    [
      'paypal awaiting with an order, client',
      doctor,
      'client',
      facts({ paymentMethod: 'paypal', hasGatewayOrder: true }),
      ['pay', 'submitReceipt', 'setInvoiceCustomer', 'cancel', 'refresh'],
    ],
    [
      'paid with an invoice, admin',
      admin,
      'staff',
      facts({ paymentStatus: 'paid', hasInvoice: true }),
      ['setInvoiceCustomer', 'setInvoiceNumber', 'cancel'],
    ],
    [
      'paid with an invoice number, client',
      doctor,
      'client',
      facts({ paymentStatus: 'paid', hasInvoice: true, invoiceNumber: 'NF-1' }),
      ['cancel'],
    ],
    [
      'pending cancel, client',
      doctor,
      'client',
      facts({ cancel: { requestAt: '2026-01-01', authAt: null } }),
      ['setInvoiceCustomer'],
    ],
    [
      'pending cancel, supervisor',
      supervisor,
      'staff',
      facts({ paymentStatus: 'paid', cancel: { requestAt: '2026-01-01', authAt: null } }),
      ['setInvoiceCustomer', 'authCancel'],
    ],
    ['cancelled, admin', admin, 'staff', facts({ paymentStatus: 'cancelled' }), []],
    [
      'returned paypal, client',
      doctor,
      'client',
      facts({ paymentMethod: 'paypal', paymentStatus: 'returned', hasGatewayOrder: true }),
      [],
    ],
  ] as const)('%s', (_name, viewer, relation, transaction, expected) =>
    expect(availableTransactionActions(viewer, relation, transaction)).toEqual(expected),
  );
});
