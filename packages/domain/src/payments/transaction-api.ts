/**
 * The payments API contract: what the transaction routes answer and accept,
 * shared by the server's routes and the web. Amounts are integer minor units in `currency`.
 */
import { z } from 'zod';
import { CURRENCIES } from '../i18n/locale';
import { CASE_STATUSES } from '../cases/case-status';
import { addressSchema } from '../common/address';
import { checkoutBreakdownSchema } from '../shop/shop-api';
import { shipmentSchema } from '../shop/shipment';
import { PAYMENT_METHODS, PAYMENT_STATUSES, cancelRequestSchema } from './payment';
import { INVOICE_DOCUMENT_TYPES, invoiceCustomerFormSchema } from './invoice';

/** What the caller may do on a transaction now (the server decides; the web shows these only). */
export const TRANSACTION_ACTIONS = [
  /** Pay: the Pix code, the provider's payment link or the card machine notice. */
  'pay',
  'submitReceipt',
  'authReceipt',
  'setInvoiceCustomer',
  'setInvoiceNumber',
  'checkPhysicalPayment',
  'cancel',
  'authCancel',
  'refresh',
] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

const personRefSchema = z.object({ id: z.number().int(), displayName: z.string() });

/** A submitted receipt: text, optional file (downloaded through `fileUrl`), its authorisation. */
export const receiptViewSchema = z.object({
  id: z.number().int(),
  justification: z.string(),
  fileName: z.string().nullable(),
  fileSize: z.number().int().nullable(),
  /** A short-lived signed URL for the file, or null without a file. */
  fileUrl: z.string().nullable(),
  submittedBy: personRefSchema.nullable(),
  submittedAt: z.string(),
  authUser: personRefSchema.nullable(),
  authAt: z.string().nullable(),
});

export const invoiceViewSchema = z.object({
  customerName: z.string(),
  documentType: z.enum(INVOICE_DOCUMENT_TYPES),
  document: z.string(),
  email: z.string(),
  address: addressSchema,
  invoiceNumber: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof invoiceViewSchema>;

export const cancelViewSchema = z.object({
  reasonId: z.number().int(),
  description: z.string(),
  requestUser: personRefSchema.nullable(),
  requestAt: z.string(),
  authUser: personRefSchema.nullable(),
  authAt: z.string().nullable(),
});

/** A transaction as its case's Transactions tab shows it. */
export const transactionViewSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  payer: personRefSchema,
  reference: z.string(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  currency: z.enum(CURRENCIES),
  /** Services part: total minus shipping. */
  priceServices: z.number().int(),
  priceShipping: z.number().int(),
  priceTotal: z.number().int(),
  breakdown: checkoutBreakdownSchema,
  shipment: shipmentSchema.nullable(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  paidAt: z.string().nullable(),
  /** The provider's own status word (PayPal, PagBank), for support. */
  gatewayStatus: z.string().nullable(),
  /** Where the payer pays a web payment (PayPal approval, PagBank checkout), or null. */
  paymentLink: z.string().nullable(),
  /** The Pix copy-and-paste code (BR Code) while a Pix transaction waits for payment. */
  pixCode: z.string().nullable(),
  /**
   * The Pix transaction's reference (the txid its BR Code carries, which the payer's bank shows
   * on the receiver's statement and the receipt) for every Pix transaction; null for others.
   */
  pixTxid: z.string().nullable(),
  receipt: receiptViewSchema.nullable(),
  invoice: invoiceViewSchema.nullable(),
  /** The pending or authorised cancel (a denied one is not shown). */
  cancel: cancelViewSchema.nullable(),
  /** Services this transaction pays (ids of the case's services). */
  serviceIds: z.array(z.number().int()),
  actions: z.array(z.enum(TRANSACTION_ACTIONS)),
});
export type TransactionView = z.infer<typeof transactionViewSchema>;

/** `GET /api/v1/case/{id}/transactions`: the case's transactions, newest first. */
export const caseTransactionsSchema = z.object({
  items: z.array(transactionViewSchema),
  /** Services of the case no live transaction pays (a new transaction can pay them). */
  unpaidServiceIds: z.array(z.number().int()),
  /** Methods the caller may choose for a new transaction on this case. */
  paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
  /** What a new transaction for the unpaid services would charge (the owner; else null). */
  remaining: checkoutBreakdownSchema.nullable(),
});
export type CaseTransactions = z.infer<typeof caseTransactionsSchema>;

/** `POST /case/transaction/{caseId}/new`: a transaction for the case's unpaid services. */
export const newTransactionBodySchema = z.object({ paymentMethod: z.enum(PAYMENT_METHODS) });

/** `POST .../authReceipt` and `POST .../checkPhysicalPayment`. */
export const authReceiptBodySchema = z.object({ approve: z.boolean() });
export const checkPhysicalPaymentBodySchema = z.object({ confirm: z.boolean().default(true) });

export const setInvoiceCustomerBodySchema = invoiceCustomerFormSchema;
export const setInvoiceNumberBodySchema = z.object({
  invoiceNumber: z.string().trim().min(1).max(60),
});

export const cancelTransactionBodySchema = cancelRequestSchema;
export const authCancelBodySchema = z.object({ authorize: z.boolean() });
export type AuthCancelBody = z.infer<typeof authCancelBodySchema>;

/** `GET .../paymentLink`: where to send the payer (created with the provider when needed). */
export const paymentLinkSchema = z.object({
  paymentLink: z.string().nullable(),
  pixCode: z.string().nullable(),
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

/**
 * `GET /api/v1/notification/{paypal|pagseguro}/transaction/{id}` (the provider's return): the
 * transaction after the server captured or re-read it, and what went wrong if it did.
 */
export const paymentReturnSchema = z.object({
  transaction: transactionViewSchema,
  /** null: paid (or pending with the provider); else the message key. */
  problem: z.enum(['transactionError', 'paidMethodError']).nullable(),
});
export type PaymentReturn = z.infer<typeof paymentReturnSchema>;

/** Statuses the provider may still move on its own (its notice or a re-read moves them). */
export const PROCESSING_PAYMENT_STATUSES = [
  'requesting',
  'awaiting_payment',
  'under_analysis',
] as const satisfies readonly (typeof PAYMENT_STATUSES)[number][];
export const isPaymentProcessing = (status: string) =>
  (PROCESSING_PAYMENT_STATUSES as readonly string[]).includes(status);

/**
 * `GET /api/v1/notification/{paypal|pagseguro}/status` (public: the return page before login).
 * Found by the transaction's unguessable reference (or PayPal's order token), it says only how
 * the payment stands: no amount, no case, no patient, no payer.
 */
export const publicPaymentReturnSchema = z.object({
  paymentStatus: z.enum(PAYMENT_STATUSES),
  problem: z.enum(['transactionError', 'paidMethodError']).nullable(),
});
export type PublicPaymentReturn = z.infer<typeof publicPaymentReturnSchema>;

/** Why a transaction is in the supervisors' queue. */
export const PENDING_WORK = [
  'receipt',
  'physical',
  'dentalPrev',
  'cancel',
  'paymentIssue',
] as const;
export type PendingWork = (typeof PENDING_WORK)[number];

/** `GET /api/v1/transactions/pending`: transactions waiting for staff, oldest first. */
export const pendingTransactionSchema = z.object({
  transaction: transactionViewSchema,
  patient: z.object({ fname: z.string(), lname: z.string() }),
  caseStatus: z.string(),
  waitingFor: z.enum(PENDING_WORK),
  /**
   * Other open or paid transactions of the case that charge for the same services
   * (`transactionsForSameServices`), ids ascending; empty when there is none.
   */
  sameServicesAs: z.array(z.number().int()),
});
export type PendingTransaction = z.infer<typeof pendingTransactionSchema>;

/**
 * `GET /transactions/deferred` (supervisors): cases a supervisor validated with unpaid services
 * (bill later) whose services no paid or pre-paid transaction pays yet.
 */
export const deferredCasePaymentSchema = z.object({
  caseId: z.number().int(),
  caseStatus: z.enum(CASE_STATUSES),
  caseCurrency: z.enum(CURRENCIES),
  patient: z.object({ fname: z.string(), lname: z.string() }),
  owner: z.object({ id: z.number().int(), displayName: z.string() }),
  deferredAt: z.string(),
  reason: z.string(),
  services: z.array(
    z.object({ id: z.number().int(), productName: z.string(), quantity: z.number().int() }),
  ),
});
export type DeferredCasePayment = z.infer<typeof deferredCasePaymentSchema>;
