import { randomBytes } from 'node:crypto';
import {
  approvalRecordLanguage,
  CERTIFICATE_CODE_BYTES,
  certificateCodeOf,
  isLanguage,
  normalizeCertificateCode,
  type ApprovalRecord,
  type CertificateCheck,
} from '@dentflow/domain';
import { logFor, type AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { approvablePlanningFiles, storedFileBytes } from '../attachments';

import { loadCaseAccess, type ApprovalInput, type ApprovalRecorder } from '../cases';
import { findUserById } from '../users';
import {
  findApprovalRecord,
  findApprovalRecordByCode,
  insertApprovalRecord,
  listCaseApprovalRecords,
  type ApprovalRecordView,
} from './approvals.repository';
import { certificatePdf } from './certificate-pdf';
import { stlThumbnail } from './stl-thumbnail';

/** Larger plans get no thumbnail: the certificate must answer in a moment. */
const THUMBNAIL_MAX_BYTES = 64 * 1024 * 1024;

const toRecord = (row: ApprovalRecordView): ApprovalRecord => ({
  id: row.id,
  caseId: row.caseId,
  approvedAt: row.approvedAt.toISOString(),
  approver: { id: row.approverId, name: row.approverName },
  address: row.address,
  text: row.text,
  language: isLanguage(row.language) ? row.language : 'en',
  certificateCode: row.certificateCode,
  files: row.files,
  services: row.services,
});

/**
 * Approval records (decision 028): written by the cases module's `approve` move through the
 * recorder port, read by whoever sees the case, and checked by code on the public page.
 */
export function createApprovalsService(ctx: AppContext) {
  const { db, storage } = ctx;
  const notFound = () => new AppError(404, 'NOT_FOUND');

  const recorder: ApprovalRecorder = {
    async prepare(caseId) {
      // Hashes older files outside the move's transaction; the record reads them back inside.
      await approvablePlanningFiles(db, storage, caseId);
    },

    async record(tx: DbOrTx, input: ApprovalInput) {
      const owner = await findUserById(tx, input.ownerId);
      const language = approvalRecordLanguage(owner?.dataInfo.language, input.approverLanguage);
      const row = await insertApprovalRecord(tx, {
        caseId: input.caseId,
        approverId: input.approverId,
        approvedAt: input.at,
        address: input.address,
        text: input.text,
        language,
        certificateCode: certificateCodeOf(randomBytes(CERTIFICATE_CODE_BYTES)),
        patientName: input.patientName,
        services: await input.servicesIn(language),
        files: await approvablePlanningFiles(tx, storage, input.caseId),
      });
      return { approvalId: row.id, certificateCode: row.certificateCode };
    },
  };

  /** A record on a case the caller sees; 404 like a missing one otherwise. */
  async function loadVisible(caller: AuthContext, id: number) {
    const row = await findApprovalRecord(db, id);
    if (!row || !(await loadCaseAccess(db, caller, row.caseId))) throw notFound();
    return row;
  }

  return {
    recorder,

    async list(caller: AuthContext, caseId: number) {
      if (!(await loadCaseAccess(db, caller, caseId))) throw notFound();
      return { items: (await listCaseApprovalRecords(db, caseId)).map(toRecord) };
    },

    /** The certificate PDF of a record the caller sees. */
    async certificate(caller: AuthContext, id: number) {
      const row = await loadVisible(caller, id);
      const stl = row.files.find((file) => /\.stl$/i.test(file.fileName));
      const bytes = stl
        ? await storedFileBytes(db, storage, stl.attachmentId, THUMBNAIL_MAX_BYTES)
        : null;
      let thumbnail: Buffer | null = null;
      try {
        thumbnail = bytes && stlThumbnail(bytes);
      } catch (error) {
        // A damaged mesh costs the picture, never the certificate.
        logFor(ctx, caller).warn(
          { err: error, approvalId: id },
          'approval certificate: no thumbnail',
        );
      }
      const pdf = await certificatePdf({
        record: toRecord(row),
        patientName: row.patientName,
        verificationUrl: `${ctx.config.publicUrl}/certificate/${row.certificateCode}`,
        thumbnail,
      });
      return { pdf, fileName: `approval-${row.caseId}-${row.id}.pdf` };
    },

    /** The public check: only whether the code matches, when, and the files' hashes. */
    async check(code: string): Promise<CertificateCheck> {
      const normalized = normalizeCertificateCode(code);
      const row = normalized ? await findApprovalRecordByCode(db, normalized) : undefined;
      if (!row) throw new AppError(404, 'CERTIFICATE_NOT_FOUND');
      return {
        match: true,
        approvedAt: row.approvedAt.toISOString(),
        files: row.files.map((file) => ({ version: file.version, sha256: file.sha256 })),
      };
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
