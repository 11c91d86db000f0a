import { isAdmin, isSupervisor } from '../auth/roles';
import { cancelState, canSubmitReceipt, isWebPayment } from './payment';
import type { PaymentMethod, PaymentStatus } from './payment';
import type { TransactionAction } from './transaction-api';

/**
 * Who a caller is to a transaction (docs/permissions.md, "Transactions"): `staff` (supervisor or
 * admin: they handle the money of every case), `client` (the payer or the case's owner), or null:
 * nobody else sees a case's transactions — not its planners, members, printers or instructor.
 */
export type TransactionRelation = 'staff' | 'client';

export function transactionRelation(
  viewer: { userId: number; roles: readonly string[] },
  facts: { payerId: number; caseOwnerId: number },
): TransactionRelation | null {
  if (isSupervisor(viewer.roles)) return 'staff';
  if (viewer.userId === facts.payerId || viewer.userId === facts.caseOwnerId) return 'client';
  return null;
}

/** What the actions depend on. */
export interface TransactionFacts {
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  receiptId: number | null;
  /** The current receipt waits for a decision. */
  receiptPending: boolean;
  /** The linked cancel: pending or authorised (a denied one is unlinked). */
  cancel: { requestAt: string | null; authAt: string | null } | null;
  hasInvoice: boolean;
  invoiceNumber: string | null;
  /** The provider order or checkout exists (a web payment that can be re-read). */
  hasGatewayOrder: boolean;
}

const TERMINAL: readonly PaymentStatus[] = ['cancelled', 'returned'];

/**
 * The actions a caller may take on a transaction now. Staff-only decisions: a supervisor
 * authorises receipts and cancels; an admin issues invoice numbers and confirms card machine and
 * insurance payments (the split). A pending cancel freezes paying and receipts.
 */
export function availableTransactionActions(
  viewer: { roles: readonly string[] },
  relation: TransactionRelation,
  t: TransactionFacts,
): TransactionAction[] {
  const staff = relation === 'staff';
  const client = relation === 'client';
  const cancelPending = cancelState(t.cancel) === 'requested';
  const live = !TERMINAL.includes(t.paymentStatus);
  const awaiting = t.paymentStatus === 'awaiting_payment';
  const rules: Record<TransactionAction, boolean> = {
    pay:
      client &&
      awaiting &&
      !cancelPending &&
      (t.paymentMethod === 'pix' || isWebPayment(t.paymentMethod)),
    submitReceipt:
      client &&
      !cancelPending &&
      canSubmitReceipt({ receiptId: t.receiptId, paymentStatus: t.paymentStatus }),
    authReceipt: staff && isSupervisor(viewer.roles) && awaiting && t.receiptPending,
    setInvoiceCustomer: (client || staff) && live && t.invoiceNumber === null,
    setInvoiceNumber: isAdmin(viewer.roles) && live && t.hasInvoice,
    checkPhysicalPayment:
      isAdmin(viewer.roles) &&
      t.paymentStatus === 'pre_paid' &&
      (t.paymentMethod === 'physical' || t.paymentMethod === 'dentalPrev'),
    cancel: (client || staff) && live && t.cancel === null,
    authCancel: staff && isSupervisor(viewer.roles) && cancelPending,
    refresh: (client || staff) && live && isWebPayment(t.paymentMethod) && t.hasGatewayOrder,
  };
  return (Object.keys(rules) as TransactionAction[]).filter((action) => rules[action]);
}
