// A plan's version chain as uploads and moves change it (docs/decisions/028-plan-versions-and-approval-record.md).
import { replaceRejection, type AttachmentBucket } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import { isoOrNull } from '../../http/envelope';
import {
  findAttachmentById,
  findAttachmentForUpdate,
  listChainFiles,
  updateAttachment,
  type AttachmentRow,
} from './attachments.repository';

/**
 * The file a planning upload answers (`replacesId`): the current version of a chain of the same
 * case. Anything else is a 400 on the field, the same whether the file exists elsewhere or not.
 */
export async function replacedVersion(
  db: DbOrTx,
  caseId: number,
  bucket: AttachmentBucket,
  replacesId: number | undefined,
): Promise<AttachmentRow | null> {
  if (replacesId === undefined) return null;
  const invalid = () => validationError({ replacesId: 'validation.invalid' });
  if (bucket !== 'planning') throw invalid();
  const target = await findAttachmentById(db, replacesId);
  if (!target || target.caseId !== caseId) throw invalid();
  const chain = await listChainFiles(db, target.chainId ?? target.id);
  const view = (row: AttachmentRow) => ({
    ...row,
    chainId: row.chainId ?? row.id,
    publishedAt: isoOrNull(row.publishedAt),
    supersededAt: isoOrNull(row.supersededAt),
    deletedAt: isoOrNull(row.deletedAt),
  });
  if (replaceRejection(view(target), caseId, chain.map(view))) throw invalid();
  return target;
}

/**
 * Publishing version N supersedes version N-1 in the same transaction (`at`); taking version N
 * back (unpublish, delete) puts N-1 in force again (`null`). A previous version superseded by
 * another file already means a concurrent answer won: 409.
 */
export async function settlePreviousVersion(tx: DbOrTx, file: AttachmentRow, at: Date | null) {
  if (file.previousVersionId === null) return;
  const previous = await findAttachmentForUpdate(tx, file.previousVersionId);
  if (!previous) return;
  if (at && previous.supersededAt !== null) {
    throw new AppError(409, 'ATTACHMENT_ACTION_NOT_ALLOWED');
  }
  await updateAttachment(tx, previous.id, { supersededAt: at });
}
