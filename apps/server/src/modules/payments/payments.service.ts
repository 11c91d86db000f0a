import { randomBytes } from 'node:crypto';
import {
  CURRENCIES,
  REVIEW_REASONS,
  availableTransactionActions,
  buildPixBrCode,
  isAdmin,
  isBroadNew,
  isOneOf,
  isSupervisor,
  nextPaymentStatus,
  paymentStatusFromPagbank,
  paymentStatusFromPaypal,
  paymentStatusFromPaypalEvent,
  pixTxid,
  profileCurrency,
  transactionRelation,
  type AuthCancelBody,
  type CaseTransactions,
  type CheckoutBreakdown,
  type Currency,
  type InvoiceCustomerForm,
  type Language,
  type PaymentLink,
  type PaymentMethod,
  type PaymentReturn,
  type PaymentStatus,
  type PendingTransaction,
  type DeferredCasePayment,
  type PendingWork,
  type TransactionAction,
  type TransactionFacts,
  type TransactionView,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import {
  ProviderError,
  type PagbankOrderState,
  type PaymentProviders,
  type PaypalOrderState,
} from '../../adapters/payments/payment-providers';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { deferredUnpaidServices, refreshCaseDerived, moveToCheckingOut } from '../cases';
import {
  orderItemsForCase,
  priceCart,
  type CaseOrderItems,
  type ShopUser,
  findShopUser,
  insertTransaction,
  setServicesTransaction,
} from '../shop';
import {
  applyPaymentStatus,
  newTransactionReference,
  openPaymentReview,
  recordTransactionChange,
  startTransaction,
} from './payment-changes';
import { configuredPaymentMethods, loadPixReceiver } from './payment-settings';
import {
  claimNotice,
  deleteServicesOfTransaction,
  findCancelsByIds,
  findCaseForPayments,
  findInvoicesByIds,
  findPeople,
  findReceiptsByIds,
  findTransaction,
  findTransactionByGatewayCode,
  findTransactionByReference,
  insertCancel,
  insertInvoice,
  insertReceipt,
  listCaseTransactions,
  listPendingTransactions,
  listServiceIdsByTransactions,
  lockCase,
  setNoticeOutcome,
  solvePaymentReviews,
  updateCancel,
  updateInvoice,
  updateReceipt,
  updateTransaction,
  type TransactionRow,
} from './payments.repository';

type Caller = Pick<AuthContext, 'userId' | 'roles' | 'ip'>;

/** A receipt file as the route read it (already within the size limit). */
export interface ReceiptFile {
  buffer: Buffer;
  filename: string;
  contentType: string;
}

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

/** Actions only some staff may take (the rest is decided per record by the domain). */
const ROLE_RULES: Partial<Record<TransactionAction, (roles: readonly string[]) => boolean>> = {
  authReceipt: isSupervisor,
  authCancel: isSupervisor,
  setInvoiceNumber: isAdmin,
  checkPhysicalPayment: isAdmin,
};

/** Refused while a cancel waits for its decision: 'NOT AUTHORIZED YET'. */
const FROZEN_BY_CANCEL: readonly TransactionAction[] = ['pay', 'submitReceipt', 'cancel'];

const CONFIRMATION_REVIEW_OF: Record<string, number> = {
  pix: REVIEW_REASONS.pixApproval,
};

const isoOrNull = (value: Date | null | undefined) => (value ? value.toISOString() : null);
const parseTime = (value: string | null | undefined) => {
  if (!value) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time;
};

/** Magic numbers of the receipt types accepted: PDF and the common image formats. */
function receiptTypeOf(bytes: Buffer): string | null {
  const starts = (...values: number[]) => values.every((value, i) => bytes[i] === value);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

/**
 * Transactions of a case, their receipts, invoices and cancels, and the
 * provider side (PayPal Orders v2, PagBank checkout). Every change locks the case row, then the
 * transaction row, and writes audit and history rows in the same database transaction.
 */
export function createPaymentsService(ctx: AppContext, providers: PaymentProviders) {
  const { db, config } = ctx;

  /** After the stored `modifiedAt`, so clients see the change. */
  const stamp = (previous: Date) => new Date(Math.max(Date.now(), previous.getTime() + 1));

  async function factsOf(tx: DbOrTx, t: TransactionRow): Promise<TransactionFacts> {
    const [receipt] = t.receiptId ? await findReceiptsByIds(tx, [t.receiptId]) : [];
    const [cancel] = t.cancelId ? await findCancelsByIds(tx, [t.cancelId]) : [];
    const [invoice] = t.invoiceId ? await findInvoicesByIds(tx, [t.invoiceId]) : [];
    return factsFrom(t, receipt, cancel, invoice);
  }

  function factsFrom(
    t: TransactionRow,
    receipt: { authAt: Date | null } | undefined,
    cancel: { requestAt: Date; authAt: Date | null } | undefined,
    invoice: { invoiceNumber: string | null } | undefined,
  ): TransactionFacts {
    return {
      paymentMethod: t.paymentMethod as PaymentMethod,
      paymentStatus: t.paymentStatus as PaymentStatus,
      receiptId: t.receiptId,
      receiptPending: !!receipt && receipt.authAt === null,
      cancel: cancel
        ? { requestAt: cancel.requestAt.toISOString(), authAt: isoOrNull(cancel.authAt) }
        : null,
      hasInvoice: !!invoice,
      invoiceNumber: invoice?.invoiceNumber ?? null,
      hasGatewayOrder: t.gatewayCode !== null,
    };
  }

  /** The transactions as the caller sees them (one batch of reads for all of them). */
  async function toViews(
    caller: Caller,
    rows: readonly TransactionRow[],
    ownerOf: (caseId: number) => number,
  ): Promise<TransactionView[]> {
    if (rows.length === 0) return [];
    const ids = (pick: (t: TransactionRow) => number | null) =>
      rows.map(pick).filter((id): id is number => id !== null);
    const [receipts, cancels, invoices, services, pix] = await Promise.all([
      findReceiptsByIds(
        db,
        ids((t) => t.receiptId),
      ),
      findCancelsByIds(
        db,
        ids((t) => t.cancelId),
      ),
      findInvoicesByIds(
        db,
        ids((t) => t.invoiceId),
      ),
      listServiceIdsByTransactions(
        db,
        rows.map((t) => t.id),
      ),
      rows.some((t) => t.paymentMethod === 'pix') ? loadPixReceiver(db, config) : null,
    ]);
    const receiptOf = new Map(receipts.map((r) => [r.id, r]));
    const cancelOf = new Map(cancels.map((c) => [c.id, c]));
    const invoiceOf = new Map(invoices.map((i) => [i.id, i]));
    const peopleIds = new Set<number>(rows.map((t) => t.payerId));
    for (const r of receipts)
      for (const id of [r.submittedBy, r.authUser]) if (id) peopleIds.add(id);
    for (const c of cancels)
      for (const id of [c.requestUser, c.authUser]) if (id) peopleIds.add(id);
    const people = new Map(
      (await findPeople(db, [...peopleIds])).map((p) => [
        p.id,
        { id: p.id, displayName: p.displayName },
      ]),
    );
    const ref = (id: number | null) => (id === null ? null : (people.get(id) ?? null));

    return Promise.all(
      rows.map(async (t): Promise<TransactionView> => {
        const receipt = t.receiptId ? receiptOf.get(t.receiptId) : undefined;
        const cancel = t.cancelId ? cancelOf.get(t.cancelId) : undefined;
        const invoice = t.invoiceId ? invoiceOf.get(t.invoiceId) : undefined;
        const relation = transactionRelation(caller, {
          payerId: t.payerId,
          caseOwnerId: ownerOf(t.caseId),
        });
        const actions = relation
          ? availableTransactionActions(caller, relation, factsFrom(t, receipt, cancel, invoice))
          : [];
        const fileUrl =
          receipt?.storageKey && receipt.fileName
            ? await ctx.storage.signedDownloadUrl(receipt.storageKey, {
                filename: receipt.fileName,
                contentType: receipt.contentType ?? 'application/octet-stream',
              })
            : null;
        const status = t.paymentStatus as PaymentStatus;
        return {
          id: t.id,
          caseId: t.caseId,
          payer: ref(t.payerId) ?? { id: t.payerId, displayName: '' },
          reference: t.reference,
          paymentMethod: t.paymentMethod as PaymentMethod,
          paymentStatus: status,
          currency: t.currency as Currency,
          priceServices: t.priceTotal - t.priceShipping,
          priceShipping: t.priceShipping,
          priceTotal: t.priceTotal,
          breakdown: t.descriptions,
          shipment: t.shipment ?? null,
          createdAt: t.createdAt.toISOString(),
          modifiedAt: t.modifiedAt.toISOString(),
          paidAt: isoOrNull(t.paidAt),
          gatewayStatus: t.gatewayStatus,
          paymentLink: actions.includes('pay') ? t.paymentLink : null,
          pixCode:
            t.paymentMethod === 'pix' && status === 'awaiting_payment' && pix
              ? buildPixBrCode({ ...pix, amount: t.priceTotal, txid: pixTxid(t.reference) })
              : null,
          receipt: receipt
            ? {
                id: receipt.id,
                justification: receipt.justification,
                fileName: receipt.fileName,
                fileSize: receipt.fileSize,
                fileUrl,
                submittedBy: ref(receipt.submittedBy),
                submittedAt: receipt.submittedAt.toISOString(),
                authUser: ref(receipt.authUser),
                authAt: isoOrNull(receipt.authAt),
              }
            : null,
          invoice: invoice
            ? {
                customerName: invoice.customerName,
                documentType: invoice.documentType as 'CPF' | 'CNPJ' | 'id',
                document: invoice.document,
                email: invoice.email,
                address: invoice.address,
                invoiceNumber: invoice.invoiceNumber,
              }
            : null,
          cancel: cancel
            ? {
                reasonId: cancel.reasonId,
                description: cancel.description,
                requestUser: ref(cancel.requestUser),
                requestAt: cancel.requestAt.toISOString(),
                authUser: ref(cancel.authUser),
                authAt: isoOrNull(cancel.authAt),
              }
            : null,
          serviceIds: services.filter((s) => s.transactionId === t.id).map((s) => s.id),
          actions,
        };
      }),
    );
  }

  /** One transaction as the caller sees it (404 when the caller may not see it). */
  async function viewOf(caller: Caller, id: number): Promise<TransactionView> {
    const t = await findTransaction(db, id);
    const kase = t ? await findCaseForPayments(db, t.caseId) : undefined;
    if (!t || !kase) throw new AppError(404, 'NOT_FOUND');
    if (!transactionRelation(caller, { payerId: t.payerId, caseOwnerId: kase.ownerId })) {
      throw new AppError(404, 'NOT_FOUND');
    }
    const [view] = await toViews(caller, [t], () => kase.ownerId);
    return view!;
  }

  /**
   * One change of a transaction: lock the case, then the transaction; 404 when the caller may
   * not see it, 403 when the caller's role may never do this, 409 when not now ('NOT AUTHORIZED
   * YET' while a cancel waits); run the change; publish after commit; answer the new view.
   */
  async function act(
    caller: Caller,
    id: number,
    action: TransactionAction,
    work: (tx: DbOrTx, t: TransactionRow, now: Date) => Promise<CaseEventMessage[]>,
  ): Promise<TransactionView> {
    const messages = await db.transaction(async (tx) => {
      const peek = await findTransaction(tx, id);
      if (!peek || !(await lockCase(tx, peek.caseId))) throw new AppError(404, 'NOT_FOUND');
      const kase = (await findCaseForPayments(tx, peek.caseId))!;
      const t = (await findTransaction(tx, id, { lock: true }))!;
      const relation = transactionRelation(caller, {
        payerId: t.payerId,
        caseOwnerId: kase.ownerId,
      });
      if (!relation) throw new AppError(404, 'NOT_FOUND');
      const roleRule = ROLE_RULES[action];
      if (roleRule && !roleRule(caller.roles)) throw new AppError(403, 'FORBIDDEN');
      const facts = await factsOf(tx, t);
      if (!availableTransactionActions(caller, relation, facts).includes(action)) {
        const frozen = facts.cancel && !facts.cancel.authAt && FROZEN_BY_CANCEL.includes(action);
        throw new AppError(409, frozen ? 'NOT_AUTHORIZED_YET' : 'TRANSACTION_STATE');
      }
      return work(tx, t, stamp(kase.modifiedAt));
    });
    ctx.caseEvents.publish(messages);
    return viewOf(caller, id);
  }

  // ───────────────────────── the provider side ─────────────────────────

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
      const now = stamp(kase.modifiedAt);
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
  function providerFailure(error: unknown, transactionId: number): AppError {
    if (error instanceof ProviderError) {
      ctx.log.warn(
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
          returnUrl: `${returnBase}/paypal?transaction=${t.id}`,
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
          redirectUrl: `${returnBase}/pagseguro?transaction=${t.id}`,
          notificationUrl: `${config.publicUrl}/api/v1/notification/pagseguro`,
        });
        created = { code: checkout.checkoutId, link: checkout.payUrl, status: checkout.status };
      } else {
        throw new AppError(409, 'PAYMENT_METHOD_UNAVAILABLE');
      }
    } catch (error) {
      throw error instanceof AppError ? error : providerFailure(error, t.id);
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
    const previous = (await listCaseTransactions(tx, kase.id)).find((t) => t.shipment);
    return priceCart(
      tx,
      user,
      { items: content.items, shipment: previous?.shipment ?? null, coupon: null, currency },
      { currency, language, configured: await configuredPaymentMethods(tx, config) },
    );
  }

  return {
    /** The case's transactions the caller may see, and what a new transaction could pay. */
    async listForCase(
      caller: Caller,
      caseId: number,
      language: Language,
    ): Promise<CaseTransactions> {
      const kase = await findCaseForPayments(db, caseId);
      if (!kase) throw new AppError(404, 'NOT_FOUND');
      const all = await listCaseTransactions(db, caseId);
      const visible = all.filter((t) =>
        transactionRelation(caller, { payerId: t.payerId, caseOwnerId: kase.ownerId }),
      );
      const isOwner = caller.userId === kase.ownerId;
      if (visible.length === 0 && !isOwner && !isSupervisor(caller.roles)) {
        throw new AppError(404, 'NOT_FOUND');
      }
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
        const user = await findShopUser(db, caller.userId);
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
      return {
        items: await toViews(caller, visible, () => kase.ownerId),
        unpaidServiceIds,
        paymentMethods,
        remaining,
      };
    },

    /** `POST /case/transaction/{caseId}/new`: a transaction for the case's unpaid services. */
    async createForCase(
      caller: Caller,
      caseId: number,
      paymentMethod: PaymentMethod,
      language: Language,
    ): Promise<TransactionView> {
      const { transactionId, messages } = await db.transaction(async (tx) => {
        if (!(await lockCase(tx, caseId))) throw new AppError(404, 'NOT_FOUND');
        const kase = (await findCaseForPayments(tx, caseId))!;
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
        const user = await findShopUser(tx, caller.userId);
        if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
        const priced = await priceRemaining(tx, kase, user, content, language);
        const { currency } = priced;
        if (!priced.paymentMethods.includes(paymentMethod)) {
          throw new AppError(400, 'PAYMENT_METHOD_UNAVAILABLE', {
            paymentMethod: 'validation.invalid',
          });
        }
        const now = stamp(kase.modifiedAt);
        const breakdown: CheckoutBreakdown = priced.breakdown;
        const t = await insertTransaction(tx, {
          caseId,
          payerId: caller.userId,
          coupomId: null,
          reference: newTransactionReference(caseId),
          paymentMethod,
          paymentStatus: 'awaiting_payment',
          currency,
          priceTotal: breakdown.total,
          priceShipping: breakdown.shippingFee,
          descriptions: breakdown,
          shipment: priced.shipment,
          createdAt: now,
          modifiedAt: now,
        });
        await setServicesTransaction(
          tx,
          content.reused.flat().map((service) => service.id),
          t.id,
        );
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
          await recordTransactionChange(tx, t, {
            action: 'created',
            actorId: caller.userId,
            now,
            detail: { paymentMethod, total: breakdown.total, currency, from: kase.caseStatus },
          }),
        );
        await refreshCaseDerived(tx, caseId, now);
        published.push(...(await startTransaction(tx, t, caller.userId, now)));
        return { transactionId: t.id, messages: published };
      });
      ctx.caseEvents.publish(messages);
      return viewOf(caller, transactionId);
    },

    get: viewOf,

    /** Supervisors' queue: what waits for staff, oldest first. */
    async pending(caller: Caller): Promise<PendingTransaction[]> {
      const rows = await listPendingTransactions(db, REVIEW_REASONS.paymentIssue);
      const cases = new Map<number, NonNullable<Awaited<ReturnType<typeof findCaseForPayments>>>>();
      for (const t of rows) {
        if (!cases.has(t.caseId)) {
          const kase = await findCaseForPayments(db, t.caseId);
          if (kase) cases.set(t.caseId, kase);
        }
      }
      const views = await toViews(caller, rows, (caseId) => cases.get(caseId)?.ownerId ?? 0);
      return views.map((view) => {
        const kase = cases.get(view.caseId)!;
        let waitingFor: PendingWork = 'paymentIssue';
        if (view.cancel && !view.cancel.authAt) waitingFor = 'cancel';
        else if (view.receipt && !view.receipt.authAt) waitingFor = 'receipt';
        else if (view.paymentStatus === 'pre_paid' && view.paymentMethod === 'physical') {
          waitingFor = 'physical';
        } else if (view.paymentStatus === 'pre_paid' && view.paymentMethod === 'dentalPrev') {
          waitingFor = 'dentalPrev';
        }
        return {
          transaction: view,
          patient: { fname: kase.fname, lname: kase.lname },
          caseStatus: kase.caseStatus,
          waitingFor,
        };
      });
    },

    /** Supervisors' queue: cases validated with unpaid services, still unpaid. */
    deferred(language: Language): Promise<DeferredCasePayment[]> {
      return deferredUnpaidServices(db, language);
    },

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
        throw providerFailure(error, t.id);
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
        providerFailure(error, t.id);
        return fail('transactionError');
      }
      if (reading) await applyReading(t.id, reading);
      const after = await viewOf(caller, id);
      const declined = reading?.gatewayStatus === 'DECLINED' || reading?.gatewayStatus === 'FAILED';
      return { transaction: after, problem: declined ? 'paidMethodError' : null };
    },

    /** A PayPal webhook delivery: verified with PayPal, then applied once. */
    async paypalWebhook(headers: Record<string, string | string[] | undefined>, rawBody: string) {
      if (!providers.paypal) throw new AppError(404, 'NOT_FOUND');
      const event = await providers.paypal.verifyWebhook(headers, rawBody).catch((error) => {
        throw providerFailure(error, 0);
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
          throw providerFailure(error, t.id);
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
        throw providerFailure(error, 0);
      }
      if (!t || t.paymentMethod !== 'pagseguro') return { outcome: 'unknown_transaction' };
      return { outcome: await applyReading(t.id, pagbankReading(state)) };
    },

    // ───────────────────────── receipts ─────────────────────────

    async submitReceipt(
      caller: Caller,
      id: number,
      input: { justification: string; file: ReceiptFile | null },
    ): Promise<TransactionView> {
      const justification = input.justification.trim();
      if (!input.file && !justification) {
        throw new AppError(400, 'VALIDATION_ERROR', { receipt: 'validation.required' });
      }
      let stored: { key: string; type: string } | null = null;
      if (input.file) {
        const type = receiptTypeOf(input.file.buffer);
        if (!type)
          throw new AppError(415, 'FILE_TYPE_NOT_ALLOWED', { receipt: 'validation.invalid' });
        // Checked before storing: nobody else's transaction receives a file.
        await viewOf(caller, id);
        stored = { key: `receipts/${id}/${randomBytes(12).toString('hex')}`, type };
        await ctx.storage.put(stored.key, input.file.buffer, type);
      }
      try {
        return await act(caller, id, 'submitReceipt', async (tx, t, now) => {
          const receipt = await insertReceipt(tx, {
            transactionId: t.id,
            justification,
            storageKey: stored?.key ?? null,
            fileName: input.file ? input.file.filename.slice(0, 200) : null,
            fileSize: input.file?.buffer.length ?? null,
            contentType: stored?.type ?? null,
            submittedBy: caller.userId,
            submittedAt: now,
          });
          await updateTransaction(tx, t.id, { receiptId: receipt.id, modifiedAt: now });
          await openPaymentReview(
            tx,
            t,
            CONFIRMATION_REVIEW_OF[t.paymentMethod] ?? REVIEW_REASONS.receiptPendingApproval,
            now,
          );
          const message = await recordTransactionChange(tx, t, {
            action: 'receiptSubmitted',
            actorId: caller.userId,
            now,
            detail: { receiptId: receipt.id, file: !!stored },
          });
          await refreshCaseDerived(tx, t.caseId, now);
          return [message];
        });
      } catch (error) {
        // Nothing half-written: the stored file goes with the refused submission.
        if (stored) await ctx.storage.delete(stored.key).catch(() => undefined);
        throw error;
      }
    },

    authReceipt(caller: Caller, id: number, approve: boolean) {
      return act(caller, id, 'authReceipt', async (tx, t, now) => {
        const receiptId = t.receiptId!;
        await updateReceipt(tx, receiptId, {
          authUser: caller.userId,
          authAt: now,
          approved: approve,
        });
        if (approve) {
          return applyPaymentStatus(tx, t, 'paid', {
            cause: 'staff',
            actorId: caller.userId,
            now,
            detail: { receiptId },
          });
        }
        // Denied: the receipt stays on record, unlinked, so the payer may send another.
        await updateTransaction(tx, t.id, { receiptId: null, modifiedAt: now });
        await solvePaymentReviews(
          tx,
          t.id,
          [REVIEW_REASONS.pixApproval, REVIEW_REASONS.receiptPendingApproval],
          caller.userId,
          now,
        );
        const message = await recordTransactionChange(tx, t, {
          action: 'receiptDenied',
          actorId: caller.userId,
          now,
          detail: { receiptId },
        });
        await refreshCaseDerived(tx, t.caseId, now);
        return [message];
      });
    },

    // ───────────────────────── invoices ─────────────────────────

    setInvoiceCustomer(caller: Caller, id: number, body: InvoiceCustomerForm) {
      return act(caller, id, 'setInvoiceCustomer', async (tx, t, now) => {
        const values = {
          customerName: body.customerName,
          documentType: body.documentType,
          document: body.document,
          email: body.email ?? '',
          address: body.address,
          modifiedAt: now,
        };
        if (t.invoiceId) await updateInvoice(tx, t.invoiceId, values);
        else {
          const invoice = await insertInvoice(tx, { transactionId: t.id, ...values });
          await updateTransaction(tx, t.id, { invoiceId: invoice.id });
        }
        await updateTransaction(tx, t.id, { modifiedAt: now });
        return [
          await recordTransactionChange(tx, t, {
            action: 'invoiceCustomerSet',
            actorId: caller.userId,
            now,
          }),
        ];
      });
    },

    setInvoiceNumber(caller: Caller, id: number, invoiceNumber: string) {
      return act(caller, id, 'setInvoiceNumber', async (tx, t, now) => {
        await updateInvoice(tx, t.invoiceId!, { invoiceNumber, modifiedAt: now });
        await updateTransaction(tx, t.id, { modifiedAt: now });
        return [
          await recordTransactionChange(tx, t, {
            action: 'invoiceNumberSet',
            actorId: caller.userId,
            now,
            detail: { invoiceNumber },
          }),
        ];
      });
    },

    // ───────────────────────── card machine and insurance ─────────────────────────

    checkPhysicalPayment(caller: Caller, id: number, confirm: boolean) {
      return act(caller, id, 'checkPhysicalPayment', async (tx, t, now) => {
        if (confirm) {
          return applyPaymentStatus(tx, t, 'paid', { cause: 'staff', actorId: caller.userId, now });
        }
        // Not received: stays pre-paid, flagged for a person to sort out.
        await openPaymentReview(tx, t, REVIEW_REASONS.paymentIssue, now);
        const message = await recordTransactionChange(tx, t, {
          action: 'paymentNotConfirmed',
          actorId: caller.userId,
          now,
        });
        await refreshCaseDerived(tx, t.caseId, now);
        return [message];
      });
    },

    // ───────────────────────── cancels ─────────────────────────

    requestCancel(caller: Caller, id: number, body: { reasonId: number; description: string }) {
      return act(caller, id, 'cancel', async (tx, t, now) => {
        const cancel = await insertCancel(tx, {
          transactionId: t.id,
          reasonId: body.reasonId,
          description: body.description,
          requestUser: caller.userId,
          requestAt: now,
        });
        await updateTransaction(tx, t.id, { cancelId: cancel.id, modifiedAt: now });
        await openPaymentReview(tx, t, REVIEW_REASONS.cancelRequestReview, now);
        const message = await recordTransactionChange(tx, t, {
          action: 'cancelRequested',
          actorId: caller.userId,
          now,
          detail: { reasonId: body.reasonId },
        });
        await refreshCaseDerived(tx, t.caseId, now);
        return [message];
      });
    },

    authCancel(caller: Caller, id: number, body: AuthCancelBody) {
      return act(caller, id, 'authCancel', async (tx, t, now) => {
        const cancelId = t.cancelId!;
        if (!body.authorize) {
          await updateCancel(tx, cancelId, { authUser: caller.userId, deniedAt: now });
          await updateTransaction(tx, t.id, { cancelId: null, modifiedAt: now });
          await solvePaymentReviews(
            tx,
            t.id,
            [REVIEW_REASONS.cancelRequestReview],
            caller.userId,
            now,
          );
          const message = await recordTransactionChange(tx, t, {
            action: 'cancelDenied',
            actorId: caller.userId,
            now,
          });
          await refreshCaseDerived(tx, t.caseId, now);
          return [message];
        }
        await updateCancel(tx, cancelId, { authUser: caller.userId, authAt: now });
        const deleted = await deleteServicesOfTransaction(tx, t.id);
        // Every open review about this transaction is moot once it is cancelled.
        await solvePaymentReviews(tx, t.id, Object.values(REVIEW_REASONS), caller.userId, now);
        return applyPaymentStatus(tx, t, 'cancelled', {
          cause: 'cancel',
          actorId: caller.userId,
          now,
          detail: { cancelId, deletedServiceIds: deleted },
        });
      });
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
