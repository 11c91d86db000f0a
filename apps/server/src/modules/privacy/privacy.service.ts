import { withoutPersonReferences } from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import { isoOrNull } from '../../http/envelope';
import { AppError } from '../../http/app-error';
import { accountOfUser } from '../../security/password-checks';
import { approvalsMadeBy } from '../approvals';
import { listAuditByActor, type AuditRow } from '../audit';
import { toUserProfile, findUserById, type UsersService } from '../users';
import {
  listAttachmentsOf,
  listCancelsOf,
  listEventsOf,
  listInvoicesOf,
  listMessagesBy,
  listNotificationsOf,
  listOwnedCases,
  listPaidTransactions,
  listReceiptsOf,
  listServicesOf,
} from './privacy.repository';

/** The audit action of a user deleting their own account. */
export const SELF_DELETE_ACTION = 'user.self_delete';

const iso = (date: Date) => date.toISOString();

/**
 * A user's personal data: everything the platform holds about them, and only that — other people
 * appear neither by id nor by name (a reference says whether it was the caller: `byYou`), and no
 * internal secrets (password hash, storage keys).
 */
export function createPrivacyService(ctx: AppContext, users: UsersService) {
  const { db } = ctx;

  /**
   * The caller's audit rows: details only of the rows about their own account (the others record
   * the caller's actions on other records, whose details are other people's data), and never
   * another user's id.
   */
  const auditEntryFor = (userId: number, row: AuditRow) => {
    const aboutUser = row.entity === 'user';
    const own = aboutUser && row.entityId === String(userId);
    return {
      at: iso(row.at),
      action: row.action,
      entity: row.entity,
      entityId: aboutUser && !own ? null : row.entityId,
      details: own ? withoutPersonReferences(row.details) : null,
      ip: row.ip,
    };
  };

  return {
    async exportData(userId: number) {
      const user = await findUserById(db, userId);
      if (!user || user.deletedAt) throw new AppError(404, 'NOT_FOUND');
      const ownedCases = await listOwnedCases(db, userId);
      const caseIds = ownedCases.map((row) => row.case.id);
      const [services, events, messages, notifications, paid, files, audit, approvals] =
        await Promise.all([
          listServicesOf(db, caseIds),
          listEventsOf(db, caseIds),
          listMessagesBy(db, userId),
          listNotificationsOf(db, userId),
          listPaidTransactions(db, userId),
          listAttachmentsOf(db, userId, caseIds),
          listAuditByActor(db, userId),
          approvalsMadeBy(db, userId),
        ]);
      const transactionIds = paid.map((row) => row.id);
      const [receipts, invoices, cancels] = await Promise.all([
        listReceiptsOf(db, transactionIds),
        listInvoicesOf(db, transactionIds),
        listCancelsOf(db, transactionIds),
      ]);

      const profile = toUserProfile(user);
      const { instructorId, ...capabilities } = profile.dataCapabilities;
      return {
        exportedAt: new Date().toISOString(),
        profile: {
          ...profile,
          // Whether the caller has an instructor, not who (another user's id).
          dataCapabilities: { ...capabilities, hasInstructor: instructorId !== null },
          emailNotifications: user.emailNotifications,
        },
        cases: ownedCases.map(({ case: row, patient }) => ({
          id: row.id,
          status: row.caseStatus,
          archived: row.caseArchived,
          currency: row.caseCurrency,
          address: row.address,
          observation: row.observation,
          createdAt: iso(row.createdAt),
          modifiedAt: iso(row.modifiedAt),
          validatedAt: isoOrNull(row.validatedAt),
          deadlineAt: isoOrNull(row.deadlineAt),
          finishAt: isoOrNull(row.finishAt),
          patient: {
            fname: patient.fname,
            lname: patient.lname,
            birthDate: patient.birthDate,
            gender: patient.gender,
            note: patient.note,
          },
          services: services
            .filter(({ service }) => service.caseId === row.id)
            .map(({ service }) => ({
              id: service.id,
              productId: service.productId,
              productCategoryId: service.productCategoryId,
              quantity: service.quantity,
              data: service.data,
              manufactureData: service.manufactureData,
              approveRequestAt: isoOrNull(service.approveRequestAt),
              approveAt: isoOrNull(service.approveAt),
              paidAt: isoOrNull(service.paidAt),
              createdAt: iso(service.createdAt),
            })),
          events: events
            .filter(({ event }) => event.caseId === row.id)
            .map(({ event }) => ({
              at: iso(event.at),
              action: event.action,
              byYou: event.actorId === userId,
              fromStatus: event.fromStatus,
              toStatus: event.toStatus,
              detail: withoutPersonReferences(event.detail),
            })),
        })),
        // The approvals the user made: what, when and from where (decision 028).
        approvals,
        chatMessages: messages.map((message) => ({
          id: message.id,
          caseId: message.caseId,
          channel: message.channel,
          text: message.text,
          sentAt: iso(message.sendAt),
          deletedAt: isoOrNull(message.deletedAt),
        })),
        notifications: notifications.map((notification) => ({
          id: notification.id,
          caseId: notification.caseId,
          eventType: notification.eventType,
          path: notification.path,
          createdAt: iso(notification.createdAt),
          sentAt: isoOrNull(notification.sentAt),
          viewedAt: isoOrNull(notification.viewedAt),
        })),
        transactions: paid.map((row) => ({
          id: row.id,
          caseId: row.caseId,
          reference: row.reference,
          paymentMethod: row.paymentMethod,
          paymentStatus: row.paymentStatus,
          currency: row.currency,
          priceTotal: row.priceTotal,
          priceShipping: row.priceShipping,
          descriptions: row.descriptions,
          shipment: row.shipment,
          createdAt: iso(row.createdAt),
          paidAt: isoOrNull(row.paidAt),
          receipts: receipts
            .filter((receipt) => receipt.transactionId === row.id)
            .map((receipt) => ({
              id: receipt.id,
              justification: receipt.justification,
              fileName: receipt.fileName,
              fileSize: receipt.fileSize,
              contentType: receipt.contentType,
              submittedByYou: receipt.submittedBy === userId,
              submittedAt: iso(receipt.submittedAt),
              decidedAt: isoOrNull(receipt.authAt),
              approved: receipt.approved,
            })),
          invoices: invoices
            .filter((invoice) => invoice.transactionId === row.id)
            .map((invoice) => ({
              customerName: invoice.customerName,
              documentType: invoice.documentType,
              document: invoice.document,
              email: invoice.email,
              address: invoice.address,
              invoiceNumber: invoice.invoiceNumber,
            })),
          cancels: cancels
            .filter((cancel) => cancel.transactionId === row.id)
            .map((cancel) => ({
              reasonId: cancel.reasonId,
              description: cancel.description,
              requestedByYou: cancel.requestUser === userId,
              requestedAt: iso(cancel.requestAt),
              authorisedAt: isoOrNull(cancel.authAt),
              deniedAt: isoOrNull(cancel.deniedAt),
            })),
        })),
        attachments: files.map((attachment) => ({
          id: attachment.id,
          caseId: attachment.caseId,
          type: attachment.attachmentType,
          filename: attachment.filename,
          filesize: attachment.filesize,
          mimetype: attachment.mimetype,
          status: attachment.status,
          uploadedByYou: attachment.userId === userId,
          uploadedAt: isoOrNull(attachment.uploadedAt),
          createdAt: iso(attachment.createdAt),
        })),
        auditLog: audit.map((row) => auditEntryFor(userId, row)),
      };
    },

    /**
     * The user's own deletion after confirming their password: the admin's anonymization (cases
     * and money records stay), which also ends every session.
     */
    async deleteSelf(userId: number, password: string, meta: RequestMeta) {
      const user = await findUserById(db, userId);
      if (!user || user.deletedAt) throw new AppError(404, 'NOT_FOUND');
      const right = await ctx.passwordChecks.verify(
        { account: accountOfUser(userId), address: meta.ip },
        user.passwordHash,
        password,
      );
      if (!right) throw new AppError(400, 'WRONG_PASSWORD');
      return users.anonymize(userId, userId, meta, SELF_DELETE_ACTION);
    },
  };
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;
