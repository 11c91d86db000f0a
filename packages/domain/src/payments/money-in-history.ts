import { isOneOf } from '../common/one-of';
import { transactionRelation } from './transaction-permissions';

/**
 * The case history actions the payments write (`checkout`: the order placed, `payment`: every
 * change of a transaction). Their detail is money — totals, currency, payment method, provider
 * and its statuses, receipts, invoice numbers, cancel reasons — except which transaction it is
 * and what kind of change happened.
 */
export const MONEY_EVENT_ACTIONS = ['checkout', 'payment'] as const;
const NOT_MONEY_KEYS = ['transactionId', 'change', 'upgrade'] as const;
/** A validation without payment records what the unpaid services would cost: money too. */
const OVERRIDE_MONEY_KEYS = ['unpaidAmount', 'currency'] as const;

/** Whether a history event's detail key tells about money (see MONEY_EVENT_ACTIONS). */
export function isMoneyDetailKey(action: string, key: string): boolean {
  return isOneOf(MONEY_EVENT_ACTIONS, action) && !isOneOf(NOT_MONEY_KEYS, key);
}

/**
 * The detail of a case history event as a viewer may read it: money only for whoever sees the
 * transaction it is about (`transactionRelation`, the rule of `GET /case/{id}/transactions`:
 * staff, the case owner, the payer); everyone else who sees the case reads the event without its
 * money keys. `payerId` null: the transaction is unknown, so only staff and the owner qualify.
 */
export function caseEventDetailFor(
  viewer: { userId: number; roles: readonly string[] },
  event: { action: string; detail: Record<string, unknown> },
  facts: { caseOwnerId: number; payerId: number | null },
): Record<string, unknown> {
  const override = event.detail.paymentOverride;
  const overridden = event.action === 'validate' && typeof override === 'object' && override;
  if (!isOneOf(MONEY_EVENT_ACTIONS, event.action) && !overridden) return event.detail;
  const relation = transactionRelation(viewer, {
    payerId: facts.payerId ?? facts.caseOwnerId,
    caseOwnerId: facts.caseOwnerId,
  });
  if (relation) return event.detail;
  if (overridden) {
    const reason = Object.fromEntries(
      Object.entries(override).filter(([key]) => !isOneOf(OVERRIDE_MONEY_KEYS, key)),
    );
    return { ...event.detail, paymentOverride: reason };
  }
  return Object.fromEntries(
    Object.entries(event.detail).filter(([key]) => !isMoneyDetailKey(event.action, key)),
  );
}
