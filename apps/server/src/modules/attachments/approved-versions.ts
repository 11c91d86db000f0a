import { approvableVersions, type ApprovedFile } from '@dentflow/domain';
import type { Storage } from '../../adapters/storage/storage';
import type { DbOrTx } from '../../db/client';
import { isoOrNull } from '../../http/envelope';
import { findAttachmentById, listCaseAttachments, setContentHash } from './attachments.repository';
import { sha256OfStoredObject } from './content-hash';

/**
 * The planning versions an approval of the case records now: the current version of each chain,
 * published or approved, with the SHA-256 of its stored bytes. A file confirmed before hashes
 * were kept is hashed here once and the hash stored (decision 028).
 */
export async function approvablePlanningFiles(
  db: DbOrTx,
  storage: Storage,
  caseId: number,
): Promise<ApprovedFile[]> {
  const rows = await listCaseAttachments(db, caseId);
  const current = approvableVersions(
    rows.map((row) => ({
      ...row,
      chainId: row.chainId ?? row.id,
      publishedAt: isoOrNull(row.publishedAt),
      supersededAt: isoOrNull(row.supersededAt),
      deletedAt: isoOrNull(row.deletedAt),
    })),
  );
  const files: ApprovedFile[] = [];
  for (const row of current) {
    let sha256 = row.contentSha256;
    if (sha256 === null) {
      if (!row.storageKey) continue;
      sha256 = await sha256OfStoredObject(storage, row.storageKey);
      await setContentHash(db, row.id, sha256);
    }
    files.push({
      attachmentId: row.id,
      chainId: row.chainId,
      version: row.version,
      fileName: row.filename ?? `file-${row.id}`,
      size: row.filesize ?? 0,
      sha256,
    });
  }
  return files;
}

/**
 * The stored bytes of a case file, when it is still stored and at most `maxBytes` long (the
 * certificate's thumbnail of the approved plan); null otherwise.
 */
export async function storedFileBytes(
  db: DbOrTx,
  storage: Storage,
  attachmentId: number,
  maxBytes: number,
): Promise<Buffer | null> {
  const row = await findAttachmentById(db, attachmentId);
  if (!row?.storageKey || row.deletedAt || (row.filesize ?? 0) > maxBytes) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.getObjectStream(row.storageKey)) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
