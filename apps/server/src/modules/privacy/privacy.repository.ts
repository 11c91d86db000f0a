import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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
  users,
} from '../../db/schema';

/*
 * The reads of a user's personal data export. Other people appear only by display name (joined
 * here), never by their rows.
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

/** The services of these cases, with their planner's display name. */
export function listServicesOf(db: DbOrTx, caseIds: number[]) {
  const planner = alias(users, 'planner');
  return db
    .select({ service: caseServices, plannerName: planner.displayName })
    .from(caseServices)
    .leftJoin(planner, eq(planner.id, caseServices.plannerId))
    .where(inArray(caseServices.caseId, caseIds))
    .orderBy(asc(caseServices.id));
}

/** The history of these cases, with each actor's display name. */
export function listEventsOf(db: DbOrTx, caseIds: number[]) {
  const actor = alias(users, 'actor');
  return db
    .select({ event: caseEvents, actorName: actor.displayName })
    .from(caseEvents)
    .leftJoin(actor, eq(actor.id, caseEvents.actorId))
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

/** The user's notifications, with the display name of who caused each. */
export function listNotificationsOf(db: DbOrTx, userId: number) {
  const actor = alias(users, 'actor');
  return db
    .select({ notification: notifications, actorName: actor.displayName })
    .from(notifications)
    .leftJoin(actor, eq(actor.id, notifications.actorId))
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

/** Receipts of these transactions, with the display names of who sent and who decided. */
export function listReceiptsOf(db: DbOrTx, transactionIds: number[]) {
  const sender = alias(users, 'sender');
  const decider = alias(users, 'decider');
  return db
    .select({
      receipt: transactionReceipts,
      submittedByName: sender.displayName,
      authUserName: decider.displayName,
    })
    .from(transactionReceipts)
    .leftJoin(sender, eq(sender.id, transactionReceipts.submittedBy))
    .leftJoin(decider, eq(decider.id, transactionReceipts.authUser))
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

/** Cancel requests of these transactions, with the display names of who asked and who decided. */
export function listCancelsOf(db: DbOrTx, transactionIds: number[]) {
  const requester = alias(users, 'requester');
  const decider = alias(users, 'decider');
  return db
    .select({
      cancel: transactionCancels,
      requestUserName: requester.displayName,
      authUserName: decider.displayName,
    })
    .from(transactionCancels)
    .leftJoin(requester, eq(requester.id, transactionCancels.requestUser))
    .leftJoin(decider, eq(decider.id, transactionCancels.authUser))
    .where(inArray(transactionCancels.transactionId, transactionIds))
    .orderBy(asc(transactionCancels.id));
}

/**
 * Files the user uploaded or that belong to their cases (not deleted), with the uploader's
 * display name. Metadata only: the export never carries storage keys.
 */
export function listAttachmentsOf(db: DbOrTx, userId: number, caseIds: number[]) {
  const uploader = alias(users, 'uploader');
  return db
    .select({ attachment: attachments, uploaderName: uploader.displayName })
    .from(attachments)
    .innerJoin(uploader, eq(uploader.id, attachments.userId))
    .where(
      and(
        isNull(attachments.deletedAt),
        or(eq(attachments.userId, userId), inArray(attachments.caseId, caseIds)),
      ),
    )
    .orderBy(asc(attachments.id));
}
