import { and, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { chatMessages, chatViews, notifications, planPins, users } from '../../db/schema';

export type ChatMessageRow = typeof chatMessages.$inferSelect;

/** A message with what the chat shows beside it. */
export interface ChatMessageListRow extends ChatMessageRow {
  authorName: string;
  /** Readers other than the author whose view record reaches this message. */
  seenBy: number;
  /** The file of the pin the message announces (null: no pin, or the pin is gone). */
  pinAttachmentId: number | null;
}

export async function insertChatMessage(
  db: DbOrTx,
  values: {
    caseId: number;
    channel: number;
    fromUser: number;
    text: string;
    quotedNotification: number | null;
    pinId: number | null;
  },
): Promise<ChatMessageRow> {
  const [row] = await db.insert(chatMessages).values(values).returning();
  return row!;
}

export async function findChatMessage(
  db: DbOrTx,
  messageId: number,
  options: { lock?: boolean } = {},
): Promise<ChatMessageRow | undefined> {
  const query = db.select().from(chatMessages).where(eq(chatMessages.id, messageId)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Deleted messages keep their row (and place); the text goes. */
export async function markChatMessageDeleted(
  db: DbOrTx,
  messageId: number,
  deletedBy: number,
): Promise<void> {
  await db
    .update(chatMessages)
    .set({ text: '', deletedAt: new Date(), deletedBy })
    .where(eq(chatMessages.id, messageId));
}

const listColumns = {
  id: chatMessages.id,
  caseId: chatMessages.caseId,
  channel: chatMessages.channel,
  fromUser: chatMessages.fromUser,
  text: chatMessages.text,
  quotedNotification: chatMessages.quotedNotification,
  sendAt: chatMessages.sendAt,
  deletedAt: chatMessages.deletedAt,
  deletedBy: chatMessages.deletedBy,
  pinId: chatMessages.pinId,
  pinAttachmentId: sql<number | null>`(select p.attachment_id from ${planPins} p
    where p.id = ${chatMessages.pinId})`,
  authorName: users.displayName,
  // Read marks: view records of the channel, other than the author's, that reach the message.
  seenBy: sql<number>`(select count(*) from chat_views v
    where v.case_id = ${chatMessages.caseId} and v.channel = ${chatMessages.channel}
      and v.user_id <> ${chatMessages.fromUser} and v.last_seen_message_id >= ${chatMessages.id})::int`,
};

/** A channel's messages newest first, from the one before `before` (exclusive), at most `limit`. */
export async function listChatMessages(
  db: DbOrTx,
  query: { caseId: number; channel: number; before: number | undefined; limit: number },
): Promise<ChatMessageListRow[]> {
  const rows = await db
    .select(listColumns)
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.fromUser))
    .where(
      and(
        eq(chatMessages.caseId, query.caseId),
        eq(chatMessages.channel, query.channel),
        query.before === undefined ? undefined : lt(chatMessages.id, query.before),
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(query.limit);
  return rows.map((row) => ({ ...row, seenBy: Number(row.seenBy) }));
}

export async function findChatMessageListRow(
  db: DbOrTx,
  messageId: number,
): Promise<ChatMessageListRow | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.fromUser))
    .where(eq(chatMessages.id, messageId))
    .limit(1);
  return row && { ...row, seenBy: Number(row.seenBy) };
}

export interface ChannelCounts {
  channel: number;
  /** Every message of the channel, deleted ones included (spec qtdMsg). */
  qtdMsg: number;
  /** Messages of others, not deleted, after the user's last seen one. */
  unread: number;
  lastSeenMessageId: number;
}

/** Counts of the given channels of a case for one user (channels without messages: zeros). */
export async function countChannels(
  db: DbOrTx,
  caseId: number,
  userId: number,
  channels: readonly number[],
): Promise<ChannelCounts[]> {
  if (channels.length === 0) return [];
  const [messageRows, viewRows] = await Promise.all([
    db
      .select({
        channel: chatMessages.channel,
        qtdMsg: sql<number>`count(*)::int`,
        unread: sql<number>`(count(*) filter (where ${chatMessages.fromUser} <> ${userId}
          and ${chatMessages.deletedAt} is null
          and ${chatMessages.id} > coalesce(${chatViews.lastSeenMessageId}, 0)))::int`,
      })
      .from(chatMessages)
      .leftJoin(
        chatViews,
        and(
          eq(chatViews.caseId, chatMessages.caseId),
          eq(chatViews.channel, chatMessages.channel),
          eq(chatViews.userId, userId),
        ),
      )
      .where(and(eq(chatMessages.caseId, caseId), inArray(chatMessages.channel, [...channels])))
      .groupBy(chatMessages.channel),
    db
      .select({ channel: chatViews.channel, lastSeen: chatViews.lastSeenMessageId })
      .from(chatViews)
      .where(
        and(
          eq(chatViews.caseId, caseId),
          eq(chatViews.userId, userId),
          inArray(chatViews.channel, [...channels]),
        ),
      ),
  ]);
  return channels.map((channel) => {
    const counted = messageRows.find((row) => row.channel === channel);
    return {
      channel,
      qtdMsg: Number(counted?.qtdMsg ?? 0),
      unread: Number(counted?.unread ?? 0),
      lastSeenMessageId: viewRows.find((row) => row.channel === channel)?.lastSeen ?? 0,
    };
  });
}

/** The newest message id of the channel that is not after `upTo`, or null when there is none. */
export async function findNewestMessageIdUpTo(
  db: DbOrTx,
  caseId: number,
  channel: number,
  upTo: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.caseId, caseId),
        eq(chatMessages.channel, channel),
        lte(chatMessages.id, upTo),
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(1);
  return row?.id ?? null;
}

/** Records that the user read the channel up to `upTo`; a view record never moves backwards. */
export async function upsertChatView(
  db: DbOrTx,
  view: { caseId: number; userId: number; channel: number; upTo: number },
): Promise<number> {
  const [row] = await db
    .insert(chatViews)
    .values({
      caseId: view.caseId,
      userId: view.userId,
      channel: view.channel,
      lastSeenMessageId: view.upTo,
    })
    .onConflictDoUpdate({
      target: [chatViews.caseId, chatViews.userId, chatViews.channel],
      set: {
        lastSeenMessageId: sql`greatest(${chatViews.lastSeenMessageId}, excluded.last_seen_message_id)`,
        viewedAt: sql`now()`,
      },
    })
    .returning({ lastSeen: chatViews.lastSeenMessageId });
  return row!.lastSeen;
}

/** The notification exists, is the user's own and is about this case. */
export async function isOwnCaseNotification(
  db: DbOrTx,
  notificationId: number,
  userId: number,
  caseId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.id, notificationId),
        eq(notifications.userId, userId),
        eq(notifications.caseId, caseId),
      ),
    )
    .limit(1);
  return row !== undefined;
}
