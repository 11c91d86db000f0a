import {
  allowedChatChannels,
  caseRelation,
  mayUseChatChannel,
  type CaseRelation,
  type CaseVisibilityFacts,
  type ChatChannelId,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { findUserById } from '../users';
import type { AuthContext } from '../../http/permissions';
import { loadCaseVisibilityFacts } from '../cases';

type Caller = Pick<AuthContext, 'userId' | 'roles'>;

/** What the chat knows about a caller on a case: why they see it and which channels they use. */
export interface ChatCaseAccess {
  caseId: number;
  relation: CaseRelation;
  facts: CaseVisibilityFacts;
  channels: ChatChannelId[];
}

/** The caller's chat access to a case, or null when the case is hidden from them (or missing). */
export async function loadChatAccess(
  db: DbOrTx,
  caller: Caller,
  caseId: number,
): Promise<ChatCaseAccess | null> {
  const [facts, internal] = await Promise.all([
    loadCaseVisibilityFacts(db, caseId),
    findUserById(db, caller.userId).then((user) => user?.internal),
  ]);
  if (!facts || internal === undefined) return null;
  const relation = caseRelation({ userId: caller.userId, roles: caller.roles }, facts);
  if (relation === null) return null;
  const viewer = { userId: caller.userId, roles: caller.roles, internal };
  return { caseId, relation, facts, channels: allowedChatChannels(viewer, relation, facts) };
}

/**
 * The channels the caller may use on the case, or null when the case is hidden (answer 404).
 * The realtime server asks this before joining a channel room.
 */
export async function allowedChannels(
  db: DbOrTx,
  caller: Caller,
  caseId: number,
): Promise<ChatChannelId[] | null> {
  return (await loadChatAccess(db, caller, caseId))?.channels ?? null;
}

/** Whether a user (by stored roles and internal flag) may read a channel of this case. */
export function mayReadChannel(
  facts: CaseVisibilityFacts,
  channel: number,
  user: { id: number; roles: readonly string[]; internal: boolean },
): boolean {
  const viewer = { userId: user.id, roles: user.roles, internal: user.internal };
  return mayUseChatChannel(channel, viewer, caseRelation(viewer, facts), facts);
}
