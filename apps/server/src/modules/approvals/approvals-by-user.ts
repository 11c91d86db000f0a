import type { DbOrTx } from '../../db/client';
import { listApprovalRecordsByApprover } from './approvals.repository';

/** The approvals a user made, as their own data (the account's export): what, when, from where. */
export async function approvalsMadeBy(db: DbOrTx, userId: number) {
  return (await listApprovalRecordsByApprover(db, userId)).map((record) => ({
    id: record.id,
    caseId: record.caseId,
    approvedAt: record.approvedAt.toISOString(),
    address: record.address,
    text: record.text,
    certificateCode: record.certificateCode,
    files: record.files,
  }));
}
