import {
  isPinnableFile,
  mayPin,
  mayResolvePin,
  pinChatChannel,
  type NewPinBody,
  type Pin,
  type PinList,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import { isoOrNull } from '../../http/envelope';
import type { AuthContext } from '../../http/permissions';
import { loadVisibleCaseFile, type VisibleCaseFile } from '../attachments';
import { announceChatMessage, writeChatMessage } from '../chat';
import {
  findPinForUpdate,
  findPinListRow,
  insertPin,
  listFilePins,
  updatePin,
  type PinListRow,
} from './pins.repository';

type Caller = Pick<AuthContext, 'userId' | 'roles'>;

const notFound = () => new AppError(404, 'NOT_FOUND');

function toPin(row: PinListRow, file: Pick<VisibleCaseFile, 'version'>): Pin {
  return {
    id: row.id,
    attachmentId: row.attachmentId,
    caseId: row.caseId,
    version: file.version,
    author: { id: row.authorId, name: row.authorName },
    note: row.note,
    point: row.point,
    normal: row.normal,
    camera: row.camera,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: isoOrNull(row.resolvedAt),
    resolvedBy:
      row.resolvedBy !== null ? { id: row.resolvedBy, name: row.resolvedByName ?? '' } : null,
    chatMessageId: row.chatMessageId,
  };
}

/**
 * Pins on planning models (docs/permissions.md "Pins"): a pin is seen by whoever sees its file,
 * dropped by the case's owner, planner or staff on an STL planning file, and announced in the
 * case chat in the same transaction: on the public channel when the client sees the file, on the
 * internal one while it is private.
 */
export function createPinsService(ctx: AppContext) {
  const { db } = ctx;

  async function visibleFile(tx: DbOrTx, caller: Caller, attachmentId: number) {
    const file = await loadVisibleCaseFile(tx, caller, attachmentId);
    if (!file) throw notFound();
    return file;
  }

  async function answer(id: number, file: VisibleCaseFile): Promise<Pin> {
    const row = await findPinListRow(db, id);
    if (!row) throw notFound();
    return toPin(row, file);
  }

  /** Resolves (a time and who) or reopens (none) a pin of a file the caller sees. */
  async function setResolved(caller: Caller, pinId: number, resolved: boolean): Promise<Pin> {
    const file = await db.transaction(async (tx) => {
      const pin = await findPinForUpdate(tx, pinId);
      if (!pin) throw notFound();
      const file = await visibleFile(tx, caller, pin.attachmentId);
      if (!mayResolvePin(file.actor, pin, caller.userId)) throw new AppError(403, 'FORBIDDEN');
      if (file.frozen) throw new AppError(409, 'ATTACHMENT_ACTION_NOT_ALLOWED');
      // Resolving a resolved pin (or reopening an open one) keeps it as it is.
      if ((pin.resolvedAt !== null) !== resolved) {
        await updatePin(tx, pin.id, {
          resolvedAt: resolved ? new Date() : null,
          resolvedBy: resolved ? caller.userId : null,
        });
      }
      return file;
    });
    return answer(pinId, file);
  }

  return {
    /** The pins of a file the caller sees, oldest first. */
    async list(caller: Caller, attachmentId: number): Promise<PinList> {
      const file = await visibleFile(db, caller, attachmentId);
      const rows = await listFilePins(db, attachmentId);
      return { items: rows.map((row) => toPin(row, file)) };
    },

    /** Drops a pin and posts its note in the case chat, in one transaction. */
    async create(caller: Caller, attachmentId: number, body: NewPinBody): Promise<Pin> {
      const { pinId, file, written } = await db.transaction(async (tx) => {
        const file = await visibleFile(tx, caller, attachmentId);
        if (!mayPin(file.actor)) throw new AppError(403, 'FORBIDDEN');
        if (!isPinnableFile(file)) throw new AppError(409, 'PIN_FILE_NOT_PINNABLE');
        // An earlier version of a plan is read-only: new notes go on the version in force.
        if (file.frozen || file.superseded)
          throw new AppError(409, 'ATTACHMENT_ACTION_NOT_ALLOWED');
        const pin = await insertPin(tx, {
          caseId: file.caseId,
          attachmentId: file.id,
          authorId: caller.userId,
          note: body.note,
          point: body.point,
          normal: body.normal,
          camera: body.camera,
        });
        const written = await writeChatMessage(tx, {
          caseId: file.caseId,
          channel: pinChatChannel(file.status),
          fromUser: caller.userId,
          text: body.note,
          pinId: pin.id,
        });
        await updatePin(tx, pin.id, { chatMessageId: written.messageId });
        return { pinId: pin.id, file, written };
      });
      announceChatMessage(ctx, written);
      return answer(pinId, file);
    },

    resolve: (caller: Caller, pinId: number) => setResolved(caller, pinId, true),
    reopen: (caller: Caller, pinId: number) => setResolved(caller, pinId, false),
  };
}

export type PinsService = ReturnType<typeof createPinsService>;
