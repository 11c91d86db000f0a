import type { AppContext, RequestMeta } from '../../context';
import { isoOrNull } from '../../http/envelope';
import { AppError } from '../../http/app-error';
import { accountOfUser } from '../../security/password-checks';
import { listAuditByActor } from '../audit/audit.repository';
import { toUserProfile } from '../users/user-profile';
import { findUserById } from '../users/users.repository';
import type { UsersService } from '../users/users.service';
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
 * A user's personal data (issue 11 §5): everything the platform holds about them, with other
 * people only by display name (never their ids, contacts or rows) and no internal secrets
 * (password hash, storage keys).
 */
export function createPrivacyService(ctx: AppContext, users: UsersService) {
  const { db } = ctx;

  /** Audit details about someone else's account stay out: they are that person's data. */
  const auditDetailsFor = (
    userId: number,
    row: { entity: string; entityId: string | null; details: Record<string, unknown> },
  ) => (row.entity === 'user' && row.entityId !== String(userId) ? null : row.details);

  return {
    async exportData(userId: number) {
      const user = await findUserById(db, userId);
      if (!user || user.deletedAt) throw new AppError(404, 'NOT_FOUND');
      const ownedCases = await listOwnedCases(db, userId);
      const caseIds = ownedCases.map((row) => row.case.id);
      const [services, events, messages, notifications, paid, files, audit] = await Promise.all([
        listServicesOf(db, caseIds),
        listEventsOf(db, caseIds),
        listMessagesBy(db, userId),
        listNotificationsOf(db, userId),
        listPaidTransactions(db, userId),
        listAttachmentsOf(db, userId, caseIds),
        listAuditByActor(db, userId),
      ]);
      const transactionIds = paid.map((row) => row.id);
      const [receipts, invoices, cancels] = await Promise.all([
        listReceiptsOf(db, transactionIds),
        listInvoicesOf(db, transactionIds),
        listCancelsOf(db, transactionIds),
      ]);

      return {
        exportedAt: new Date().toISOString(),
        profile: { ...toUserProfile(user), emailNotifications: user.emailNotifications },
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
            .map(({ service, plannerName }) => ({
              id: service.id,
              productId: service.productId,
              productCategoryId: service.productCategoryId,
              quantity: service.quantity,
              planner: plannerName,
              data: service.data,
              manufactureData: service.manufactureData,
              approveRequestAt: isoOrNull(service.approveRequestAt),
              approveAt: isoOrNull(service.approveAt),
              paidAt: isoOrNull(service.paidAt),
              createdAt: iso(service.createdAt),
            })),
          events: events
            .filter(({ event }) => event.caseId === row.id)
            .map(({ event, actorName }) => ({
              at: iso(event.at),
              action: event.action,
              actor: actorName,
              fromStatus: event.fromStatus,
              toStatus: event.toStatus,
              detail: event.detail,
            })),
        })),
        chatMessages: messages.map((message) => ({
          id: message.id,
          caseId: message.caseId,
          channel: message.channel,
          text: message.text,
          sentAt: iso(message.sendAt),
          deletedAt: isoOrNull(message.deletedAt),
        })),
        notifications: notifications.map(({ notification, actorName }) => ({
          id: notification.id,
          caseId: notification.caseId,
          eventType: notification.eventType,
          path: notification.path,
          actor: actorName,
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
            .filter(({ receipt }) => receipt.transactionId === row.id)
            .map(({ receipt, submittedByName, authUserName }) => ({
              id: receipt.id,
              justification: receipt.justification,
              fileName: receipt.fileName,
              fileSize: receipt.fileSize,
              contentType: receipt.contentType,
              submittedBy: submittedByName,
              submittedAt: iso(receipt.submittedAt),
              decidedBy: authUserName,
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
            .filter(({ cancel }) => cancel.transactionId === row.id)
            .map(({ cancel, requestUserName, authUserName }) => ({
              reasonId: cancel.reasonId,
              description: cancel.description,
              requestedBy: requestUserName,
              requestedAt: iso(cancel.requestAt),
              decidedBy: authUserName,
              authorisedAt: isoOrNull(cancel.authAt),
              deniedAt: isoOrNull(cancel.deniedAt),
            })),
        })),
        attachments: files.map(({ attachment, uploaderName }) => ({
          id: attachment.id,
          caseId: attachment.caseId,
          type: attachment.attachmentType,
          filename: attachment.filename,
          filesize: attachment.filesize,
          mimetype: attachment.mimetype,
          status: attachment.status,
          uploadedBy: uploaderName,
          uploadedAt: isoOrNull(attachment.uploadedAt),
          createdAt: iso(attachment.createdAt),
        })),
        auditLog: audit.map((row) => ({
          at: iso(row.at),
          action: row.action,
          entity: row.entity,
          entityId: row.entityId,
          details: auditDetailsFor(userId, row),
          ip: row.ip,
        })),
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
