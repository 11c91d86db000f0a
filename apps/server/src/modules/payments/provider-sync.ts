import {
  nextPaymentStatus,
  paymentStatusFromPagbank,
  paymentStatusFromPaypal,
  paymentStatusFromPaypalEvent,
  isPaymentProcessing,
  REVIEW_REASONS,
  type PaymentLink,
  type PaymentReturn,
  type PaymentStatus,
  type PublicPaymentReturn,
  type TransactionView,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import {
  ProviderError,
  type PagbankOrderState,
  type PaymentProviders,
  type PaypalOrderState,
} from '../../adapters/payments/payment-providers';
import { logFor, type AppContext, type LogScope } from '../../context';
import { AppError } from '../../http/app-error';
import { refreshCaseDerived } from '../cases';
import {
  applyPaymentStatus,
  openPaymentReview,
  recordTransactionChange,
  stampAfter,
} from './payment-changes';
import {
  claimNotice,
  findCaseForPayments,
  findPeople,
  findTransaction,
  findTransactionByGatewayCode,
  findTransactionByReference,
  lockCase,
  setNoticeOutcome,
  updateTransaction,
  type TransactionRow,
} from './payments.repository';
import type { Caller, TransactionViews } from './transaction-views';

/** What a provider says now about a transaction's payment, reduced to what we act on. */
interface ProviderReading {
  provider: 'paypal' | 'pagbank';
  /** Unique per notice (webhook id) or per observed state (reads), so repeats change nothing. */
  eventKey: string;
  reported: PaymentStatus | null;
  gatewayStatus: string | null;
  gatewayCapture: string | null;
  amount: number | null;
  currency: string | null;
  eventAt: Date | null;
  detail: Record<string, unknown>;
}

const parseTime = (value: string | null | undefined) => {
  if (!value) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time;
};

/**
 * The provider side of web payments (PayPal Orders v2, PagBank checkout): the payment link,
 * re-reads, the return pages and the providers' notices, each applied once.
 */
export function createProviderSync(
  ctx: AppContext,
  providers: PaymentProviders,
  views: Pick<TransactionViews, 'viewOf'>,
) {
  const { db, config } = ctx;
  const { viewOf } = views;

  /**
   * Applies what a provider says, once per notice: a repeated notice (same key) changes nothing;
   * an amount or currency that is not the transaction's opens 'payment issue' instead of paying;
   * a notice older than the last applied one changes nothing; a move the status machine refuses
   * (e.g. back from paid) changes nothing. Returns the outcome recorded with the notice.
   */
  async function applyReading(transactionId: number, reading: ProviderReading): Promise<string> {
    const { outcome, messages } = await db.transaction(async (tx) => {
      const noticeId = await claimNotice(tx, {
        provider: reading.provider,
        eventKey: reading.eventKey,
        transactionId,
        outcome: 'processing',
        providerStatus: reading.gatewayStatus,
        detail: reading.detail,
      });
      if (noticeId === null) return { outcome: 'duplicate', messages: [] as CaseEventMessage[] };
      const peek = await findTransaction(tx, transactionId);
      if (!peek || !(await lockCase(tx, peek.caseId))) {
        await setNoticeOutcome(tx, noticeId, 'unknown_transaction');
        return { outcome: 'unknown_transaction', messages: [] };
      }
      const kase = (await findCaseForPayments(tx, peek.caseId))!;
      const t = (await findTransaction(tx, transactionId, { lock: true }))!;
      const now = stampAfter(kase.modifiedAt);
      const gateway = {
        gatewayStatus: reading.gatewayStatus ?? t.gatewayStatus,
        gatewayCapture: reading.gatewayCapture ?? t.gatewayCapture,
        gatewayMoney: reading.amount ?? t.gatewayMoney,
      };
      const finish = async (result: string, published: CaseEventMessage[] = []) => {
        await setNoticeOutcome(tx, noticeId, result);
        return { outcome: result, messages: published };
      };

      if (t.gatewayEventAt && reading.eventAt && reading.eventAt < t.gatewayEventAt) {
        return finish('ignored_stale');
      }
      const mismatch =
        (reading.amount !== null && reading.amount !== t.priceTotal) ||
        (reading.currency !== null && reading.currency !== t.currency);
      if (mismatch && reading.reported !== null && reading.reported !== t.paymentStatus) {
        await updateTransaction(tx, t.id, { ...gateway, modifiedAt: now });
        await openPaymentReview(tx, t, REVIEW_REASONS.paymentIssue, now);
        const message = await recordTransactionChange(tx, t, {
          action: 'amountMismatch',
          actorId: null,
          now,
          detail: {
            provider: reading.provider,
            amount: reading.amount,
            currency: reading.currency,
            expected: t.priceTotal,
            expectedCurrency: t.currency,
          },
        });
        await refreshCaseDerived(tx, t.caseId, now);
        return finish('amount_mismatch', [message]);
      }
      const next = reading.reported
        ? nextPaymentStatus(t.paymentStatus as PaymentStatus, reading.reported, 'provider')
        : null;
      if (!next) {
        await updateTransaction(tx, t.id, gateway);
        return finish('ignored_same');
      }
      const published = await applyPaymentStatus(tx, t, next, {
        cause: 'provider',
        actorId: null,
        now,
        patch: { ...gateway, gatewayEventAt: reading.eventAt ?? now },
        detail: { provider: reading.provider, providerStatus: reading.gatewayStatus },
      });
      return finish('applied', published);
    });
    ctx.caseEvents.publish(messages);
    ctx.metrics.paymentNotice(outcome === 'applied' ? 'applied' : 'refused', outcome);
    return outcome;
  }

  const paypalReading = (state: PaypalOrderState, key: string): ProviderReading => ({
    provider: 'paypal',
    eventKey: key,
    reported: paymentStatusFromPaypal({
      orderStatus: state.status,
      captureStatus: state.captureStatus,
    }),
    gatewayStatus: state.captureStatus ?? state.status,
    gatewayCapture: state.captureId,
    amount: state.amount,
    currency: state.currency,
    eventAt: parseTime(state.updatedAt),
    detail: { orderId: state.orderId, captureId: state.captureId },
  });

  const pagbankReading = (state: PagbankOrderState): ProviderReading => ({
    provider: 'pagbank',
    eventKey: `order:${state.orderId}:${state.chargeId ?? '-'}:${state.chargeStatus ?? '-'}`,
    reported: paymentStatusFromPagbank(state.chargeStatus),
    gatewayStatus: state.chargeStatus,
    gatewayCapture: state.chargeId,
    amount: state.amount,
    currency: state.currency,
    eventAt: parseTime(state.updatedAt),
    detail: { orderId: state.orderId, chargeId: state.chargeId },
  });

  /** Reads the provider's state of a web payment (capturing an approved PayPal order). */
  async function readProvider(t: TransactionRow): Promise<ProviderReading | null> {
    if (!t.gatewayCode) return null;
    if (t.paymentMethod === 'paypal' && providers.paypal) {
      let state = await providers.paypal.getOrder(t.gatewayCode);
      if (state.status === 'APPROVED') state = await providers.paypal.captureOrder(t.gatewayCode);
      const key = `read:${state.orderId}:${state.status}:${state.captureId ?? '-'}:${state.captureStatus ?? '-'}`;
      return paypalReading(state, key);
    }
    if (t.paymentMethod === 'pagseguro' && providers.pagbank) {
      const checkout = await providers.pagbank.getCheckout(t.gatewayCode);
      const orderId = checkout.orderIds.at(-1);
      if (!orderId) return null;
      return pagbankReading(await providers.pagbank.getOrder(orderId));
    }
    return null;
  }

  /** A provider failure, logged for support; the caller sees 'Error on transaction'. */
  function providerFailure(error: unknown, transactionId: number, scope: LogScope): AppError {
    if (error instanceof ProviderError) {
      logFor(ctx, scope).warn(
        { provider: error.provider, status: error.status, transactionId, reason: error.message },
        'payment provider call failed',
      );
      return new AppError(502, 'TRANSACTION_ERROR');
    }
    throw error;
  }

  /** Creates the provider's order or checkout once per transaction; answers the payment link. */
  async function ensurePaymentLink(caller: Caller, t: TransactionRow): Promise<string> {
    if (t.paymentLink && t.gatewayCode) return t.paymentLink;
    const returnBase = `${config.publicUrl}/notification`;
    let created: { code: string; link: string | null; status: string };
    try {
      if (t.paymentMethod === 'paypal' && providers.paypal) {
        const order = await providers.paypal.createOrder({
          reference: t.reference,
          amount: t.priceTotal,
          currency: t.currency,
          description: `Dentflow ${t.reference}`,
          returnUrl: `${returnBase}/paypal?transaction=${t.id}&reference=${t.reference}`,
          cancelUrl: `${config.publicUrl}/case/${t.caseId}?tab=transactions`,
        });
        created = { code: order.orderId, link: order.approveUrl, status: order.status };
      } else if (t.paymentMethod === 'pagseguro' && providers.pagbank) {
        const [payer] = await findPeople(db, [caller.userId]);
        const checkout = await providers.pagbank.createCheckout({
          reference: t.reference,
          amount: t.priceTotal,
          currency: 'BRL',
          itemName: `Dentflow ${t.reference}`,
          customer: payer ? { name: payer.displayName, email: payer.email } : null,
          redirectUrl: `${returnBase}/pagseguro?transaction=${t.id}&reference=${t.reference}`,
          notificationUrl: `${config.publicUrl}/api/v1/notification/pagseguro`,
        });
        created = { code: checkout.checkoutId, link: checkout.payUrl, status: checkout.status };
      } else {
        throw new AppError(409, 'PAYMENT_METHOD_UNAVAILABLE');
      }
    } catch (error) {
      throw error instanceof AppError ? error : providerFailure(error, t.id, caller);
    }
    if (!created.link) throw new AppError(502, 'TRANSACTION_ERROR');
    // Two clicks at once: the first stored order wins (the provider's idempotency key made both
    // calls answer the same one anyway).
    const stored = await db.transaction(async (tx) => {
      const locked = (await findTransaction(tx, t.id, { lock: true }))!;
      if (locked.gatewayCode && locked.paymentLink) return locked.paymentLink;
      await updateTransaction(tx, t.id, {
        gatewayCode: created.code,
        paymentLink: created.link,
        gatewayStatus: created.status,
      });
      return created.link!;
    });
    return stored;
  }

  return {
    /** `GET paymentLink`: the Pix code, or the provider's page (created on first use). */
    async paymentLink(caller: Caller, id: number): Promise<PaymentLink> {
      const view = await viewOf(caller, id);
      if (!view.actions.includes('pay')) {
        throw new AppError(
          409,
          view.cancel && !view.cancel.authAt ? 'NOT_AUTHORIZED_YET' : 'TRANSACTION_STATE',
        );
      }
      if (view.paymentMethod === 'pix') return { paymentLink: null, pixCode: view.pixCode };
      const t = (await findTransaction(db, id))!;
      return { paymentLink: await ensurePaymentLink(caller, t), pixCode: null };
    },

    /** `GET refresh`: re-reads the provider (web payments) and applies what it says. */
    async refresh(caller: Caller, id: number): Promise<TransactionView> {
      const view = await viewOf(caller, id);
      if (!view.actions.includes('refresh')) return view;
      const t = (await findTransaction(db, id))!;
      try {
        const reading = await readProvider(t);
        if (reading) await applyReading(t.id, reading);
      } catch (error) {
        throw providerFailure(error, t.id, caller);
      }
      return viewOf(caller, id);
    },

    /**
     * The provider's return (`/notification/paypal|pagseguro`): captures an approved PayPal order
     * or reads the PagBank order, applies it, and says what went wrong if it did.
     */
    async providerReturn(
      caller: Caller,
      id: number,
      provider: 'paypal' | 'pagseguro',
      token: string | undefined,
    ): Promise<PaymentReturn> {
      const view = await viewOf(caller, id);
      const t = (await findTransaction(db, id))!;
      const fail = (problem: PaymentReturn['problem']) => ({ transaction: view, problem });
      if (t.paymentMethod !== provider || !t.gatewayCode) return fail('transactionError');
      if (provider === 'paypal' && token && token !== t.gatewayCode)
        return fail('transactionError');
      let reading: ProviderReading | null;
      try {
        reading = await readProvider(t);
      } catch (error) {
        providerFailure(error, t.id, caller);
        return fail('transactionError');
      }
      if (reading) await applyReading(t.id, reading);
      const after = await viewOf(caller, id);
      const declined = reading?.gatewayStatus === 'DECLINED' || reading?.gatewayStatus === 'FAILED';
      return { transaction: after, problem: declined ? 'paidMethodError' : null };
    },

    /**
     * The return page without a session: the transaction is found by its unguessable reference
     * (or PayPal's order token, which only the payer holds), a payment the provider may still
     * move is re-read (so a payer whose session expired still completes the payment), and only
     * the payment's status is answered. Unknown or mismatched → 404, the same for both.
     */
    async publicReturn(
      provider: 'paypal' | 'pagseguro',
      query: { reference?: string | undefined; token?: string | undefined },
      scope: LogScope,
    ): Promise<PublicPaymentReturn> {
      const byReference = query.reference
        ? await findTransactionByReference(db, query.reference)
        : undefined;
      const t =
        byReference ??
        (provider === 'paypal' && query.token && !query.reference
          ? await findTransactionByGatewayCode(db, 'paypal', query.token)
          : undefined);
      const tokenMismatch =
        provider === 'paypal' && !!query.token && !!t?.gatewayCode && query.token !== t.gatewayCode;
      if (!t || t.paymentMethod !== provider || tokenMismatch) throw new AppError(404, 'NOT_FOUND');
      if (!t.gatewayCode || !isPaymentProcessing(t.paymentStatus)) {
        return { paymentStatus: t.paymentStatus as PaymentStatus, problem: null };
      }
      let reading: ProviderReading | null;
      try {
        reading = await readProvider(t);
      } catch (error) {
        providerFailure(error, t.id, scope);
        return { paymentStatus: t.paymentStatus as PaymentStatus, problem: 'transactionError' };
      }
      if (reading) await applyReading(t.id, reading);
      const after = (await findTransaction(db, t.id)) ?? t;
      const declined = reading?.gatewayStatus === 'DECLINED' || reading?.gatewayStatus === 'FAILED';
      return {
        paymentStatus: after.paymentStatus as PaymentStatus,
        problem: declined ? 'paidMethodError' : null,
      };
    },

    /** A PayPal webhook delivery: verified with PayPal, then applied once. */
    async paypalWebhook(
      headers: Record<string, string | string[] | undefined>,
      rawBody: string,
      scope: LogScope,
    ) {
      if (!providers.paypal) throw new AppError(404, 'NOT_FOUND');
      const event = await providers.paypal.verifyWebhook(headers, rawBody).catch((error) => {
        throw providerFailure(error, 0, scope);
      });
      if (!event) throw new AppError(400, 'BAD_REQUEST');
      const t =
        (event.reference ? await findTransactionByReference(db, event.reference) : undefined) ??
        (event.orderId
          ? await findTransactionByGatewayCode(db, 'paypal', event.orderId)
          : undefined);
      if (!t || t.paymentMethod !== 'paypal') return { outcome: 'unknown_transaction' };
      if (event.eventType === 'CHECKOUT.ORDER.APPROVED' && t.gatewayCode) {
        // The payer approved but did not come back: capture now (idempotent with the return).
        const state = await providers.paypal.captureOrder(t.gatewayCode).catch((error) => {
          throw providerFailure(error, t.id, scope);
        });
        return { outcome: await applyReading(t.id, paypalReading(state, `webhook:${event.id}`)) };
      }
      const outcome = await applyReading(t.id, {
        provider: 'paypal',
        eventKey: `webhook:${event.id}`,
        reported: paymentStatusFromPaypalEvent(event.eventType, event.resourceStatus),
        gatewayStatus: event.resourceStatus ?? event.eventType,
        gatewayCapture: event.captureId,
        amount: event.amount,
        currency: event.currency,
        eventAt: parseTime(event.createTime),
        detail: { eventType: event.eventType, orderId: event.orderId },
      });
      return { outcome };
    },

    /**
     * A PagBank notification: a missing or wrong signature is refused (401) before anything is
     * read; otherwise the order is read from PagBank (the body's status is never trusted), its
     * transaction found by what PagBank answers, and the reading applied once.
     */
    async pagbankNotification(
      headers: Record<string, string | string[] | undefined>,
      rawBody: string,
      scope: LogScope,
    ) {
      const pagbank = providers.pagbank;
      if (!pagbank) throw new AppError(404, 'NOT_FOUND');
      const notice = pagbank.readNotification(headers, rawBody);
      if (notice.kind === 'unsigned') throw new AppError(401, 'NOT_AUTHORIZED');
      if (notice.kind === 'unreadable') throw new AppError(400, 'BAD_REQUEST');
      let t: TransactionRow | undefined;
      let state: PagbankOrderState;
      try {
        state = await pagbank.getOrder(notice.orderId);
        // The transaction is the one PagBank says the order belongs to: the order's own reference,
        // else the checkout the notice names, once PagBank confirms the order is that checkout's.
        t = state.reference ? await findTransactionByReference(db, state.reference) : undefined;
        if (!t && notice.checkoutId) {
          const checkout = await pagbank.getCheckout(notice.checkoutId);
          if (checkout.orderIds.includes(state.orderId)) {
            t = await findTransactionByGatewayCode(db, 'pagseguro', checkout.checkoutId);
          }
        }
      } catch (error) {
        throw providerFailure(error, 0, scope);
      }
      if (!t || t.paymentMethod !== 'pagseguro') return { outcome: 'unknown_transaction' };
      return { outcome: await applyReading(t.id, pagbankReading(state)) };
    },
  };
}
