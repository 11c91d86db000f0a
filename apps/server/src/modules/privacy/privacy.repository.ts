import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  attachments,
  caseEvents,
  caseServices,
  cases,
  chatMessages,
  invoiceCustomers,
  notifications,
  patients,
  transactionCancels,
  transactionReceipts,
  transactions,
} from '../../db/schema';

/*
 * The reads of a user's personal data export. Other people's rows are never joined: the export
 * names nobody but the caller.
 */

/** The cases the user owns, with their patient. */
export function listOwnedCases(db: DbOrTx, userId: number) {
  return db
    .select({ case: cases, patient: patients })
    .from(cases)
    .innerJoin(patients, eq(patients.id, cases.patientId))
    .where(eq(cases.ownerId, userId))
    .orderBy(asc(cases.id));
}

/** The services of these cases. */
export function listServicesOf(db: DbOrTx, caseIds: number[]) {
  return db
    .select({ service: caseServices })
    .from(caseServices)
    .where(inArray(caseServices.caseId, caseIds))
    .orderBy(asc(caseServices.id));
}

/** The history of these cases. */
export function listEventsOf(db: DbOrTx, caseIds: number[]) {
  return db
    .select({ event: caseEvents })
    .from(caseEvents)
    .where(inArray(caseEvents.caseId, caseIds))
    .orderBy(asc(caseEvents.id));
}

/** The chat messages the user wrote. */
export function listMessagesBy(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.fromUser, userId))
    .orderBy(asc(chatMessages.id));
}

/** The user's notifications. */
export function listNotificationsOf(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.id));
}

/** The transactions the user paid. */
export function listPaidTransactions(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(transactions)
    .where(eq(transactions.payerId, userId))
    .orderBy(asc(transactions.id));
}

/** Receipts of these transactions. */
export function listReceiptsOf(db: DbOrTx, transactionIds: number[]) {
  return db
    .select()
    .from(transactionReceipts)
    .where(inArray(transactionReceipts.transactionId, transactionIds))
    .orderBy(asc(transactionReceipts.id));
}

/** Invoice customers of these transactions. */
export function listInvoicesOf(db: DbOrTx, transactionIds: number[]) {
  return db
    .select()
    .from(invoiceCustomers)
    .where(inArray(invoiceCustomers.transactionId, transactionIds))
    .orderBy(asc(invoiceCustomers.id));
}

/** Cancel requests of these transactions. */
export function listCancelsOf(db: DbOrTx, transactionIds: number[]) {
  return db
    .select()
    .from(transactionCancels)
    .where(inArray(transactionCancels.transactionId, transactionIds))
    .orderBy(asc(transactionCancels.id));
}

/**
 * Files the user uploaded or that belong to their cases (not deleted). Metadata only: the export
 * never carries storage keys.
 */
export function listAttachmentsOf(db: DbOrTx, userId: number, caseIds: number[]) {
  return db
    .select()
    .from(attachments)
    .where(
      and(
        isNull(attachments.deletedAt),
        or(eq(attachments.userId, userId), inArray(attachments.caseId, caseIds)),
      ),
    )
    .orderBy(asc(attachments.id));
}
