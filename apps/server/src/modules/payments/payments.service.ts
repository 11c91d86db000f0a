import type { DeferredCasePayment, Language } from '@dentflow/domain';
import type { PaymentProviders } from '../../adapters/payments/payment-providers';
import type { AppContext } from '../../context';
import { deferredUnpaidServices } from '../cases';
import { createProviderSync } from './provider-sync';
import { createTransactionActions } from './transaction-actions';
import { createTransactionViews } from './transaction-views';

export type { ReceiptFile } from './transaction-actions';

/**
 * What the payments routes call: the transaction views and queues (`transaction-views.ts`), the
 * provider side (`provider-sync.ts`) and people's changes of a transaction
 * (`transaction-actions.ts`). Every change locks the case row, then the transaction row, and
 * writes audit and history rows in the same database transaction.
 */
export function createPaymentsService(ctx: AppContext, providers: PaymentProviders) {
  const views = createTransactionViews(ctx);
  return {
    get: views.viewOf,

    /** Supervisors' queue: what waits for staff, oldest first. */
    pending: views.pending,

    /** Supervisors' queue: cases validated with unpaid services, still unpaid. */
    deferred(language: Language): Promise<DeferredCasePayment[]> {
      return deferredUnpaidServices(ctx.db, language);
    },

    ...createProviderSync(ctx, providers, views),
    ...createTransactionActions(ctx, views),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
