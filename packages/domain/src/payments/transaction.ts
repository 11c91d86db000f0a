import { z } from 'zod';
import { addressSchema } from '../common/address';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from './payment';
import { invoiceCustomerSchema } from './invoice';

/** Cancel record. */
export const cancelRecordSchema = z.object({
  id: z.number().int(),
  reasonId: z.number().int(),
  description: z.string(),
  requestUser: z.number().int(),
  requestAt: z.string(),
  authUser: z.number().int().nullable(),
  authAt: z.string().nullable(),
});

/** Receipt (a submission: justification text and file, then an authorisation). */
export const receiptSchema = z.object({
  id: z.number().int(),
  justification: z.string(),
  attachmentId: z.number().int().nullable(),
  authUser: z.number().int().nullable(),
  authAt: z.string().nullable(),
});

/** Transaction. Amounts are integer minor units in the case currency. */
export const transactionSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  payerId: z.number().int(),
  coupomId: z.number().int().nullable(),
  reference: z.string(),
  paymentMethod: z.enum(PAYMENT_METHODS),
  gatewayCapture: z.string().nullable(),
  gatewayMoney: z.number().int().nullable(),
  gatewayCode: z.string().nullable(),
  gatewayStatus: z.string().nullable(),
  paymentLink: z.string().nullable(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  priceShipping: z.number().int().min(0),
  priceTotal: z.number().int().min(0),
  createdAt: z.string(),
  modifiedAt: z.string(),
  paidAt: z.string().nullable(),
  descriptions: z.array(z.string()),
  receiptId: z.number().int().nullable(),
  receipt: receiptSchema.nullable().optional(),
  invoiceId: z.number().int().nullable(),
  invoice: invoiceCustomerSchema.extend({ address: addressSchema }).nullable().optional(),
  cancelId: z.number().int().nullable(),
  cancel: cancelRecordSchema.nullable().optional(),
});
