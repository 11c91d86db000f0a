/**
 * A second transaction for the same services: two transactions of one case, both still open or
 * paid, that charge for the same product (its order lines name the same product). The clinic
 * would pay twice for one thing, so the supervisors' queue warns before a receipt is authorised.
 */
import type { PaymentStatus } from './payment';

/**
 * Statuses that neither charge nor hold money any more: the transaction no longer covers its
 * services (a cancelled one frees them for another order; returned and debited money went back).
 */
const SETTLED_AWAY: readonly PaymentStatus[] = ['cancelled', 'returned', 'debited'];

const coversItsServices = (status: PaymentStatus) => !SETTLED_AWAY.includes(status);

export interface CoveringTransaction {
  id: number;
  caseId: number;
  paymentStatus: PaymentStatus;
  /** The products its order lines charge for. */
  productIds: readonly number[];
}

/**
 * For each transaction, the other open or paid transactions of its case that charge for one of
 * the same products (ids ascending); a transaction without such a twin is absent.
 */
export function transactionsForSameServices(
  transactions: readonly CoveringTransaction[],
): Map<number, number[]> {
  const live = transactions.filter((t) => coversItsServices(t.paymentStatus));
  const result = new Map<number, number[]>();
  for (const t of live) {
    const products = new Set(t.productIds);
    const twins = live
      .filter(
        (other) =>
          other.id !== t.id &&
          other.caseId === t.caseId &&
          other.productIds.some((id) => products.has(id)),
      )
      .map((other) => other.id)
      .sort((a, b) => a - b);
    if (twins.length > 0) result.set(t.id, twins);
  }
  return result;
}
