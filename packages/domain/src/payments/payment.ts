import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import type { Currency } from '../i18n/locale';
import { CANCEL_REASON_IDS, type CancelReasonId } from '../constants';
import { isOneOf } from '../common/one-of';
import { codeSchema } from '../common/bounds';

/** Payment statuses; the core flow uses awaiting_payment, pre_paid, paid and cancelled. */
export const PAYMENT_STATUSES = [
  'requesting',
  'awaiting_payment',
  'under_analysis',
  'pre_paid',
  'paid',
  'available',
  'in_dispute',
  'returned',
  'cancelled',
  'debited',
  'temporary_retention',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const CORE_PAYMENT_STATUSES = ['awaiting_payment', 'pre_paid', 'paid', 'cancelled'] as const;

/** Paid or pre-paid: what makes a transaction count as settled for the case checks. */
export const isPaidOrPrePaid = (status: string) => status === 'paid' || status === 'pre_paid';

/** Payment methods; PayPal and PagSeguro are web payments (through a provider). */
export const PAYMENT_METHODS = ['pix', 'physical', 'dentalPrev', 'paypal', 'pagseguro'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const WEB_PAYMENT_METHODS = [
  'paypal',
  'pagseguro',
] as const satisfies readonly PaymentMethod[];
export const isWebPayment = (method: string) => isOneOf(WEB_PAYMENT_METHODS, method);

/**
 * Whether each method can be used as far as the platform goes: switched on in the payments
 * settings and, for those that need one, configured (a Pix key, PayPal or PagBank credentials).
 * `physical` and `dentalPrev` need no configuration, only the switch; absent means on.
 */
export interface ConfiguredPaymentMethods {
  pix: boolean;
  paypal: boolean;
  pagseguro: boolean;
  physical?: boolean;
  dentalPrev?: boolean;
}

/**
 * The methods offered at checkout. The spec: the physical credit card option depends on the
 * physicalCreditCard capability, dental insurance on dentalPrev. Decision (spec silent): Pix and
 * PagSeguro (PagBank) settle in reais only, so they are offered for BRL; PayPal for both. A method
 * that needs a setting (Pix key, provider credentials) is offered only when it is configured, and
 * a method switched off in the payments settings never is.
 */
export function availablePaymentMethods(
  capabilities: { physicalCreditCard: boolean; dentalPrev: boolean },
  currency: Currency,
  configured: ConfiguredPaymentMethods,
): PaymentMethod[] {
  return PAYMENT_METHODS.filter((method) => {
    switch (method) {
      case 'pix':
        return currency === 'BRL' && configured.pix;
      case 'pagseguro':
        return currency === 'BRL' && configured.pagseguro;
      case 'physical':
        return capabilities.physicalCreditCard && configured.physical !== false;
      case 'dentalPrev':
        return capabilities.dentalPrev && configured.dentalPrev !== false;
      case 'paypal':
        return configured.paypal;
    }
  });
}

/** Receipt limits. */
export const RECEIPT_MAX_BYTES = 4_124_672;
export const RECEIPT_DESCRIPTION_MAX = 75;

/** A receipt can be submitted only when there is none yet and the status is awaiting_payment. */
export function canSubmitReceipt(transaction: {
  receiptId: number | null;
  paymentStatus: string;
}): boolean {
  return transaction.receiptId === null && transaction.paymentStatus === 'awaiting_payment';
}

/** A file over the limit is rejected (and removed from the form, with no message). */
export const isReceiptFileAllowed = (file: { size: number } | null | undefined) =>
  !!file && file.size > 0 && file.size <= RECEIPT_MAX_BYTES;

/** Confirm is disabled unless a file or a description exists (and the description fits). */
export function canConfirmReceipt(form: {
  file: { size: number } | null;
  justification: string;
}): boolean {
  const text = form.justification.trim();
  if (form.justification.length > RECEIPT_DESCRIPTION_MAX) return false;
  if (form.file && !isReceiptFileAllowed(form.file)) return false;
  return !!form.file || text.length > 0;
}

/** The text part of the multipart receipt submission. */
export const receiptJustificationSchema = z.object({
  justification: z.string().trim().max(RECEIPT_DESCRIPTION_MAX, MESSAGE.max),
});

/** Cancel: valid only with a reason id; reason and description both required. */
export const cancelRequestSchema = z.object({
  reasonId: codeSchema(CANCEL_REASON_IDS, MESSAGE.required),
  description: z
    .string({ error: MESSAGE.required })
    .trim()
    .min(1, MESSAGE.required)
    .max(500, MESSAGE.max),
});
export type CancelRequest = { reasonId: CancelReasonId; description: string };

export const isCancelValid = (value: { reasonId?: number | null; description?: string | null }) =>
  cancelRequestSchema.safeParse(value).success;

export type CancelState = 'none' | 'requested' | 'authorized';
/**
 * A cancel is requested (requestAt), then authorised (authAt) or denied. Denial removes the cancel
 * record from the transaction, so a record is either pending or authorised.
 */
export function cancelState(
  cancel: { requestAt: string | null; authAt: string | null } | null | undefined,
): CancelState {
  if (!cancel?.requestAt) return 'none';
  return cancel.authAt ? 'authorized' : 'requested';
}

/** A cancel can be requested for a transaction that is not cancelled and has no cancel record. */
export const canRequestCancel = (transaction: { paymentStatus: string; cancelId: number | null }) =>
  transaction.paymentStatus !== 'cancelled' && transaction.cancelId === null;

/**
 * Authorising a cancel cancels the transaction and deletes every service paid by it; the server
 * keeps which services a transaction paid. This gives the ids to delete.
 */
export function servicesDeletedByCancel(
  services: readonly { id: number; transactionId?: number | null }[],
  transactionId: number,
): number[] {
  return services.filter((service) => service.transactionId === transactionId).map((s) => s.id);
}
