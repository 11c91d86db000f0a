import {
  CHAT_DELETE_WINDOW_MS,
  isSupervisor,
  type ChatChannels,
  type ChatMessageView,
  type ChatPage,
  type PostChatMessageBody,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { loadChatAccess, type ChatCaseAccess } from './chat-access';
import { announceChatMessage, writeChatMessage } from './chat-posting';
import {
  countChannels,
  findChatMessage,
  findChatMessageListRow,
  findNewestMessageIdUpTo,
  isOwnCaseNotification,
  listChatMessages,
  markChatMessageDeleted,
  upsertChatView,
  type ChatMessageListRow,
} from './chat.repository';

type Caller = Pick<AuthContext, 'userId' | 'roles'>;

const notFound = () => new AppError(404, 'NOT_FOUND');

/** The author within the delete window, or a supervisor (admin) at any time. */
function mayDelete(caller: Caller, message: { fromUser: number; sendAt: Date }, now: number) {
  if (isSupervisor(caller.roles)) return true;
  return (
    message.fromUser === caller.userId && now - message.sendAt.getTime() <= CHAT_DELETE_WINDOW_MS
  );
}

function toView(caller: Caller, row: ChatMessageListRow, now = Date.now()): ChatMessageView {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    caseId: row.caseId,
    channel: row.channel,
    author: { id: row.fromUser, displayName: row.authorName },
    text: deleted ? '' : row.text,
    deleted,
    quotedNotification: row.quotedNotification,
    sendAt: row.sendAt.toISOString(),
    seenBy: row.seenBy,
    canDelete: !deleted && mayDelete(caller, row, now),
    pin:
      row.pinId !== null && row.pinAttachmentId !== null
        ? { id: row.pinId, attachmentId: row.pinAttachmentId }
        : null,
  };
}

/**
 * The case chat: four channels per case, each open to the people of
 * the domain's `allowedChatChannels`. A hidden case is a 404; a visible case's channel the caller
 * may not use is a 403. Messages are not case history: no case event, the case is not touched.
 */
export function createChatService(ctx: AppContext) {
  const { db } = ctx;

  async function accessTo(db: DbOrTx, caller: Caller, caseId: number): Promise<ChatCaseAccess> {
    const access = await loadChatAccess(db, caller, caseId);
    if (!access) throw notFound();
    return access;
  }

  async function channelAccess(
    db: DbOrTx,
    caller: Caller,
    caseId: number,
    channel: number,
  ): Promise<ChatCaseAccess> {
    const access = await accessTo(db, caller, caseId);
    if (!(access.channels as number[]).includes(channel)) {
      throw new AppError(403, 'FORBIDDEN');
    }
    return access;
  }

  async function messageView(caller: Caller, messageId: number): Promise<ChatMessageView> {
    const row = await findChatMessageListRow(db, messageId);
    if (!row) throw notFound();
    return toView(caller, row);
  }

  return {
    /** The channels the caller may use on the case, with their counts. */
    async channels(caller: Caller, caseId: number): Promise<ChatChannels> {
      const access = await accessTo(db, caller, caseId);
      const counts = await countChannels(db, caseId, caller.userId, access.channels);
      return {
        channels: counts.map(({ channel, qtdMsg, unread }) => ({ channel, qtdMsg, unread })),
      };
    },

    /** A page of a channel, newest first; `before` is the oldest message id already shown. */
    async page(
      caller: Caller,
      caseId: number,
      channel: number,
      query: { before?: number | undefined; limit: number },
    ): Promise<ChatPage> {
      await channelAccess(db, caller, caseId, channel);
      const [rows, [counts]] = await Promise.all([
        listChatMessages(db, { caseId, channel, before: query.before, limit: query.limit + 1 }),
        countChannels(db, caseId, caller.userId, [channel]),
      ]);
      const now = Date.now();
      return {
        items: rows.slice(0, query.limit).map((row) => toView(caller, row, now)),
        hasMore: rows.length > query.limit,
        unread: counts!.unread,
        lastSeenMessageId: counts!.lastSeenMessageId,
      };
    },

    /**
     * A new message; in the same transaction its notifications for the case's people who may
     * read the channel (never the author). After commit the channel room and each recipient hear.
     */
    async post(
      caller: Caller,
      caseId: number,
      channel: number,
      body: PostChatMessageBody,
    ): Promise<ChatMessageView> {
      const written = await db.transaction(async (tx) => {
        const access = await channelAccess(tx, caller, caseId, channel);
        const quoted = body.quotedNotification ?? null;
        if (quoted !== null && !(await isOwnCaseNotification(tx, quoted, caller.userId, caseId))) {
          throw validationError({ quotedNotification: 'validation.invalid' });
        }
        return writeChatMessage(tx, {
          caseId,
          channel,
          fromUser: caller.userId,
          text: body.text,
          quotedNotification: quoted,
          facts: access.facts,
        });
      });
      announceChatMessage(ctx, written);
      return messageView(caller, written.messageId);
    },

    /**
     * Deletes a message (it keeps its place, without text): its author within
     * `CHAT_DELETE_WINDOW_MS`, or a supervisor at any time. A message of a channel the caller
     * may not read is a 404, like a missing one.
     */
    async remove(caller: Caller, caseId: number, messageId: number): Promise<ChatMessageView> {
      const channel = await db.transaction(async (tx) => {
        const access = await accessTo(tx, caller, caseId);
        const message = await findChatMessage(tx, messageId, { lock: true });
        if (
          !message ||
          message.caseId !== caseId ||
          !(access.channels as number[]).includes(message.channel)
        ) {
          throw notFound();
        }
        const mine = message.fromUser === caller.userId;
        if (!mine && !isSupervisor(caller.roles)) throw new AppError(403, 'FORBIDDEN');
        if (message.deletedAt !== null) throw new AppError(409, 'CHAT_MESSAGE_DELETED');
        if (!mayDelete(caller, message, Date.now())) throw new AppError(403, 'FORBIDDEN');
        await markChatMessageDeleted(tx, messageId, caller.userId);
        return message.channel;
      });
      ctx.live.toChannel(caseId, channel, { type: 'chat.deleted', caseId, channel, messageId });
      return messageView(caller, messageId);
    },

    /** The caller read the channel up to `upTo` (clamped to its newest message; never backwards). */
    async seen(
      caller: Caller,
      caseId: number,
      channel: number,
      upTo: number,
    ): Promise<{ lastSeenMessageId: number; unread: number }> {
      await channelAccess(db, caller, caseId, channel);
      const newest = await findNewestMessageIdUpTo(db, caseId, channel, upTo);
      if (newest === null) throw validationError({ upTo: 'validation.invalid' });
      const lastSeenMessageId = await upsertChatView(db, {
        caseId,
        userId: caller.userId,
        channel,
        upTo: newest,
      });
      const [counts] = await countChannels(db, caseId, caller.userId, [channel]);
      return { lastSeenMessageId, unread: counts!.unread };
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
