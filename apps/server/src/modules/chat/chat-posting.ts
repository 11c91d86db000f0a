import type { CaseVisibilityFacts } from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { loadCaseVisibilityFacts } from '../cases';
import { notifyCaseUsers, publishNotifications } from '../notifications';
import { mayReadChannel } from './chat-access';
import { insertChatMessage } from './chat.repository';

/** Where a chat notification opens the case. */
export const chatPath = (caseId: number, channel: number) =>
  `/case/${caseId}?tab=chat&channel=${channel}`;

export interface WrittenChatMessage {
  caseId: number;
  channel: number;
  messageId: number;
  /** Who was notified (to hear about it after commit). */
  recipients: number[];
}

/**
 * Writes a message and, in the same transaction, its notifications for the case's people who
 * may read the channel (never the author). The caller has checked that the author may write
 * there; `facts` saves reading the case again when the caller has them.
 */
export async function writeChatMessage(
  tx: DbOrTx,
  input: {
    caseId: number;
    channel: number;
    fromUser: number;
    text: string;
    quotedNotification?: number | null;
    pinId?: number | null;
    facts?: CaseVisibilityFacts;
  },
): Promise<WrittenChatMessage> {
  const { caseId, channel } = input;
  const facts = input.facts ?? (await loadCaseVisibilityFacts(tx, caseId));
  const message = await insertChatMessage(tx, {
    caseId,
    channel,
    fromUser: input.fromUser,
    text: input.text,
    quotedNotification: input.quotedNotification ?? null,
    pinId: input.pinId ?? null,
  });
  const recipients = await notifyCaseUsers(tx, {
    caseId,
    eventType: channel,
    actorId: input.fromUser,
    resourceId: message.id,
    path: chatPath(caseId, channel),
    mayReceive: (user) => (facts ? mayReadChannel(facts, channel, user) : false),
  });
  return { caseId, channel, messageId: message.id, recipients };
}

/** After commit: the channel's room gets the message like any other; each recipient hears. */
export function announceChatMessage(
  ctx: Pick<AppContext, 'live'>,
  { caseId, channel, messageId, recipients }: WrittenChatMessage,
): void {
  ctx.live.toChannel(caseId, channel, { type: 'chat.message', caseId, channel, messageId });
  publishNotifications(ctx, caseId, recipients, channel);
}
