import { isPaidOrPrePaid } from '../payments/payment';

/**
 * Whether a case's services are paid for. What is made must be paid for: a case enters `execute`
 * (a supervisor's validation or the automatic move when it is paid) only when every live service
 * belongs to a paid or pre-paid transaction. A supervisor may validate unpaid services on purpose
 * (a lab billing a trusted clinic later); those services are then "deferred": they may be made,
 * and they stay unpaid until a transaction pays them.
 */

/** How a service stands towards payment, as the case page shows it. */
export const SERVICE_PAYMENT_STATES = ['paid', 'awaitingPayment', 'deferred', 'unpaid'] as const;
export type ServicePaymentState = (typeof SERVICE_PAYMENT_STATES)[number];

export interface ServicePaymentFacts {
  id: number;
  /** The status of the transaction the service belongs to; null when it has none. */
  transactionStatus: string | null;
  /** A supervisor validated it unpaid (bill later). */
  paymentDeferred: boolean;
}

/** A transaction that is not cancelled (a cancelled one pays nothing: its services have none). */
export const isLiveTransactionStatus = (status: string | null): status is string =>
  status !== null && status !== 'cancelled';
const liveTransactionStatus = (status: string | null) =>
  isLiveTransactionStatus(status) ? status : null;

export function servicePaymentState(service: ServicePaymentFacts): ServicePaymentState {
  const status = liveTransactionStatus(service.transactionStatus);
  if (status !== null && isPaidOrPrePaid(status)) return 'paid';
  if (service.paymentDeferred) return 'deferred';
  return status === null ? 'unpaid' : 'awaitingPayment';
}

/** May be planned, approved and printed: paid or pre-paid, or deferred by a supervisor. */
export const isServiceCovered = (service: ServicePaymentFacts) => {
  const state = servicePaymentState(service);
  return state === 'paid' || state === 'deferred';
};

/** The services that may not be made yet, for the case page to name. */
export const uncoveredServices = <T extends ServicePaymentFacts>(services: readonly T[]): T[] =>
  services.filter((service) => !isServiceCovered(service));

/**
 * The case's transactions check: it has services and every one is covered. A case with services
 * and no transaction at all fails it.
 */
export const areServicesCovered = (services: readonly ServicePaymentFacts[]) =>
  services.length > 0 && services.every(isServiceCovered);

/** The case has a transaction that is not cancelled (new services then need their own order). */
export const hasLiveTransaction = (transactionStatuses: readonly string[]) =>
  transactionStatuses.some(isLiveTransactionStatus);
