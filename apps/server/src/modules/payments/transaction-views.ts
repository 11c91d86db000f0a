import {
  REVIEW_REASONS,
  availableTransactionActions,
  buildPixBrCode,
  isLanguage,
  isSupervisor,
  pixTxid,
  productName,
  transactionRelation,
  transactionsForSameServices,
  type CheckoutBreakdown,
  type Currency,
  type PaymentMethod,
  type PaymentStatus,
  type PendingTransaction,
  type PendingWork,
  type TransactionFacts,
  type TransactionView,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { findProductsByIds } from '../products';
import { loadPixReceiver } from '../settings';
import {
  findCancelsByIds,
  findCaseForPayments,
  findInvoicesByIds,
  findPeople,
  findReceiptsByIds,
  findTransaction,
  listCaseTransactions,
  listTransactionsOfCases,
  listPendingTransactions,
  listServiceIdsByTransactions,
  type TransactionRow,
} from './payments.repository';

/** Who asks: the user, their roles, address (for the case history) and profile language. */
export type Caller = Pick<AuthContext, 'userId' | 'roles' | 'ip' | 'log'> &
  Partial<Pick<AuthContext, 'language'>>;

const isoOrNull = (value: Date | null | undefined) => (value ? value.toISOString() : null);

/** What the domain decides a transaction's actions on, read for one transaction. */
export async function factsOf(tx: DbOrTx, t: TransactionRow): Promise<TransactionFacts> {
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

/**
 * The order lines named in the reader's language: the stored breakdown keeps the names in the
 * payer's language at checkout, and staff read them in theirs. A product gone since keeps the
 * stored name.
 */
async function breakdownsIn(
  db: DbOrTx,
  language: string | undefined,
  breakdowns: readonly CheckoutBreakdown[],
): Promise<CheckoutBreakdown[]> {
  if (!isLanguage(language)) return [...breakdowns];
  const ids = [...new Set(breakdowns.flatMap((b) => b.lines.map((line) => line.cartProductId)))];
  const products = new Map((await findProductsByIds(db, ids)).map((p) => [p.id, p]));
  return breakdowns.map((breakdown) => ({
    ...breakdown,
    lines: breakdown.lines.map((line) => {
      const product = products.get(line.cartProductId);
      return { ...line, name: (product && productName(product, language)) || line.name };
    }),
  }));
}

/**
 * Transactions as their viewers see them: the payer, the case owner and staff, each with the
 * actions the domain allows them now (a receipt's file as a signed link, a Pix code while unpaid).
 */
export function createTransactionViews(ctx: AppContext) {
  const { db, config } = ctx;

  /** The transactions as the caller sees them (one batch of reads for all of them). */
  async function toViews(
    caller: Caller,
    rows: readonly TransactionRow[],
    ownerOf: (caseId: number) => number,
  ): Promise<TransactionView[]> {
    if (rows.length === 0) return [];
    const ids = (pick: (t: TransactionRow) => number | null) =>
      rows.map(pick).filter((id): id is number => id !== null);
    const [receipts, cancels, invoices, services, pix, breakdowns] = await Promise.all([
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
      breakdownsIn(
        db,
        caller.language,
        rows.map((t) => t.descriptions),
      ),
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
      rows.map(async (t, index): Promise<TransactionView> => {
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
          breakdown: breakdowns[index] ?? t.descriptions,
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
          pixTxid: t.paymentMethod === 'pix' ? pixTxid(t.reference) : null,
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

  return {
    toViews,
    viewOf,

    /**
     * The case's transactions the caller may see, newest first, with the case read for them;
     * 404 when the case does not exist, or when the caller sees none of them and is neither the
     * owner (who may start one) nor a supervisor.
     */
    async caseTransactions(caller: Caller, caseId: number) {
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
      return { case: kase, items: await toViews(caller, visible, () => kase.ownerId) };
    },

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
      // Paid transactions are not in the queue but may charge for the same services.
      const ofTheseCases = await listTransactionsOfCases(db, [
        ...new Set(rows.map((t) => t.caseId)),
      ]);
      const twins = transactionsForSameServices(
        ofTheseCases.map((t) => ({
          id: t.id,
          caseId: t.caseId,
          paymentStatus: t.paymentStatus as PaymentStatus,
          productIds: t.descriptions.lines.map((line) => line.cartProductId),
        })),
      );
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
          sameServicesAs: twins.get(view.id) ?? [],
        };
      });
    },
  };
}

export type TransactionViews = ReturnType<typeof createTransactionViews>;
