import {
  attachmentActorFor,
  isCaseFrozenForFiles,
  mayViewAttachment,
  type AttachmentActor,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import type { AuthContext } from '../../http/permissions';
import { loadCaseAccess } from '../cases';
import { findAttachmentById } from './attachments.repository';

/** A case file the caller sees, with what other modules decide on it. */
export interface VisibleCaseFile {
  id: number;
  caseId: number;
  bucketName: string;
  filename: string | null;
  status: string;
  /** Its place in the plan's version chain (1 until a file answers another). */
  version: number;
  /** A later version of its plan is published: this one is read-only. */
  superseded: boolean;
  /** The caller's standing on the file's case (domain `attachmentActorFor`). */
  actor: AttachmentActor;
  /** The file or its case takes no changes (frozen flag; case archived, cancelled or closed). */
  frozen: boolean;
}

/**
 * A confirmed, non-deleted case file as the caller may see it, or null when they may not (a
 * case they do not see, a private planning file for a client, a missing or temporary file):
 * callers answer 404 then, exactly as for a missing file.
 */
export async function loadVisibleCaseFile(
  db: DbOrTx,
  caller: Pick<AuthContext, 'userId' | 'roles'>,
  id: number,
): Promise<VisibleCaseFile | null> {
  const row = await findAttachmentById(db, id);
  if (!row || row.deletedAt || row.caseId === null || row.status === 'uploading') return null;
  const access = await loadCaseAccess(db, caller, row.caseId);
  if (!access) return null;
  const actor = attachmentActorFor(access);
  if (!mayViewAttachment(actor, { status: row.status, deletedAt: null })) return null;
  return {
    id: row.id,
    caseId: row.caseId,
    bucketName: row.bucketName,
    filename: row.filename,
    status: row.status,
    version: row.version,
    superseded: row.supersededAt !== null,
    actor,
    frozen: row.freeze || isCaseFrozenForFiles(access),
  };
}
