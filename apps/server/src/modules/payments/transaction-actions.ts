import { randomBytes } from 'node:crypto';
import {
  REVIEW_REASONS,
  availableTransactionActions,
  isAdmin,
  isSupervisor,
  transactionRelation,
  type AuthCancelBody,
  type InvoiceCustomerForm,
  type TransactionAction,
  type TransactionView,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { refreshCaseDerived } from '../cases';
import {
  applyPaymentStatus,
  openPaymentReview,
  recordTransactionChange,
  stampAfter,
} from './payment-changes';
import {
  deleteServicesOfTransaction,
  findCaseForPayments,
  findTransaction,
  insertCancel,
  insertInvoice,
  insertReceipt,
  lockCase,
  solvePaymentReviews,
  updateCancel,
  updateInvoice,
  updateReceipt,
  updateTransaction,
  type TransactionRow,
} from './payments.repository';
import { factsOf, type Caller, type TransactionViews } from './transaction-views';

/** A receipt file as the route read it (already within the size limit). */
export interface ReceiptFile {
  buffer: Buffer;
  filename: string;
  contentType: string;
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
 * What people do with a transaction: receipts, invoices, the card machine's confirmation and
 * cancels. Every change locks the case row, then the transaction row, and writes audit and
 * history rows in the same database transaction.
 */
export function createTransactionActions(ctx: AppContext, views: Pick<TransactionViews, 'viewOf'>) {
  const { db } = ctx;
  const { viewOf } = views;

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
      return work(tx, t, stampAfter(kase.modifiedAt));
    });
    ctx.caseEvents.publish(messages);
    return viewOf(caller, id);
  }

  return {
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
