import {
  CURRENCIES,
  isBroadNew,
  isOneOf,
  isSupervisor,
  profileCurrency,
  type CaseTransactions,
  type CheckoutBreakdown,
  type Language,
  type PaymentMethod,
  type TransactionView,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { findUserById } from '../users';
import { AppError } from '../../http/app-error';
import { loadCaseAccess, loadCaseRecord, moveToCheckingOut, refreshCaseDerived } from '../cases';
import {
  createTransactionViews,
  openTransaction,
  recordTransactionOpened,
  startTransaction,
} from '../payments';
import { configuredPaymentMethods } from '../settings';
import {
  orderItemsForCase,
  priceCart,
  type CaseOrderItems,
  type ShopCaller,
  type ShopUser,
} from './cart-pricing';
import { findLatestCaseShipment } from './shop.repository';

/**
 * 'Pay the remaining services': an order, without a cart, for the case's services no transaction
 * pays yet (`GET /case/{id}/transactions` shows its price, `POST /case/transaction/{id}/new`
 * places it). Only the case owner orders, while the case is open.
 */
export function createCasePaymentService(ctx: AppContext) {
  const { db, config } = ctx;
  const views = createTransactionViews(ctx);

  /**
   * Prices a new transaction for the case's services without an order (`orderItemsForCase` with
   * an empty cart), in the case's currency, with the delivery of its earlier order: what 'pay the
   * remaining services' shows and then charges.
   */
  async function priceRemaining(
    tx: DbOrTx,
    kase: { id: number; caseCurrency: string },
    user: ShopUser,
    content: CaseOrderItems,
    language: Language,
  ) {
    const currency = isOneOf(CURRENCIES, kase.caseCurrency)
      ? kase.caseCurrency
      : profileCurrency(user.dataInfo);
    return priceCart(
      tx,
      user,
      {
        items: content.items,
        shipment: await findLatestCaseShipment(tx, kase.id),
        coupon: null,
        currency,
      },
      { currency, language, configured: await configuredPaymentMethods(tx, config) },
    );
  }

  return {
    /** The case's transactions the caller may see, and what a new transaction could pay. */
    async listForCase(
      caller: ShopCaller,
      caseId: number,
      language: Language,
    ): Promise<CaseTransactions> {
      const { case: kase, items } = await views.caseTransactions(caller, caseId);
      const isOwner = caller.userId === kase.ownerId;
      const content = await orderItemsForCase(db, caseId, []);
      const unpaidServiceIds = content.reused.flat().map((service) => service.id);
      let paymentMethods: PaymentMethod[] = [];
      let remaining: CheckoutBreakdown | null = null;
      if (
        isOwner &&
        unpaidServiceIds.length > 0 &&
        !kase.caseArchived &&
        kase.caseStatus !== 'cancelled'
      ) {
        const user = await findUserById(db, caller.userId);
        // What a new transaction would charge, shown before anything is created; a product
        // removed from the catalogue since cannot be priced (nor paid) any more.
        const priced = user
          ? await priceRemaining(db, kase, user, content, language).catch((error: unknown) => {
              if (error instanceof AppError && error.statusCode < 500) return null;
              throw error;
            })
          : null;
        remaining = priced?.breakdown ?? null;
        paymentMethods = priced?.paymentMethods ?? [];
      }
      return { items, unpaidServiceIds, paymentMethods, remaining };
    },

    /** `POST /case/transaction/{caseId}/new`: a transaction for the case's unpaid services. */
    async createForCase(
      caller: ShopCaller,
      caseId: number,
      paymentMethod: PaymentMethod,
      language: Language,
    ): Promise<TransactionView> {
      const { transactionId, messages } = await db.transaction(async (tx) => {
        // Locks the case row first, like every change of the case's payments.
        await loadCaseAccess(tx, caller, caseId, { lock: true });
        const kase = await loadCaseRecord(tx, caseId);
        if (!kase) throw new AppError(404, 'NOT_FOUND');
        if (kase.ownerId !== caller.userId) {
          throw new AppError(
            isSupervisor(caller.roles) ? 403 : 404,
            isSupervisor(caller.roles) ? 'FORBIDDEN' : 'NOT_FOUND',
          );
        }
        if (kase.caseArchived) throw new AppError(409, 'CASE_ARCHIVED');
        if (kase.caseStatus === 'cancelled' || kase.caseStatus === 'closed') {
          throw new AppError(409, 'INVALID_TRANSITION');
        }
        const content = await orderItemsForCase(tx, caseId, []);
        if (content.items.length === 0) throw new AppError(409, 'NOTHING_TO_PAY');
        const user = await findUserById(tx, caller.userId);
        if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
        const priced = await priceRemaining(tx, kase, user, content, language);
        if (!priced.paymentMethods.includes(paymentMethod)) {
          throw new AppError(400, 'PAYMENT_METHOD_UNAVAILABLE', {
            paymentMethod: 'validation.invalid',
          });
        }
        // After the stored modifiedAt, so clients see the change.
        const now = new Date(Math.max(Date.now(), kase.modifiedAt.getTime() + 1));
        const t = await openTransaction(tx, {
          caseId,
          payerId: caller.userId,
          couponId: null,
          paymentMethod,
          currency: priced.currency,
          breakdown: priced.breakdown,
          shipment: priced.shipment,
          serviceIds: content.reused.flat().map((service) => service.id),
          now,
        });
        const published: CaseEventMessage[] = [];
        if (isBroadNew(kase.caseStatus)) {
          await moveToCheckingOut(tx, {
            caseId,
            actorId: caller.userId,
            cause: 'payment',
            from: kase.caseStatus,
            ip: caller.ip,
          });
        }
        published.push(
          await recordTransactionOpened(tx, t, {
            actorId: caller.userId,
            now,
            fromStatus: kase.caseStatus,
          }),
        );
        await refreshCaseDerived(tx, caseId, now);
        published.push(...(await startTransaction(tx, t, caller.userId, now)));
        return { transactionId: t.id, messages: published };
      });
      ctx.caseEvents.publish(messages);
      return views.viewOf(caller, transactionId);
    },
  };
}
