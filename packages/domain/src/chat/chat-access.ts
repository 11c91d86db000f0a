import { isSupervisor } from '../auth/roles';
import type { CaseRelation } from '../cases/case-access';
import { CHAT_CHANNELS, CHAT_CHANNEL_IDS, type ChatChannelId } from './chat';

/**
 * Who may read and write each chat channel of one case
 * (docs/permissions.md "Chat channels"). The server checks that the viewer sees the case at all
 * (`caseRelation`) and then asks this function; the web shows one tab per channel it answers.
 */

export interface ChatViewer {
  userId: number;
  roles: readonly string[];
  /** The user's internal flag (a person of the lab without a staff role). */
  internal: boolean;
}

export interface ChatCaseFacts {
  ownerId: number;
  /** The owner's instructor (profile capabilities); the instructor channel exists only with one. */
  ownerInstructorId: number | null;
}

const hasAny = (roles: readonly string[], wanted: readonly string[]) =>
  wanted.some((role) => roles.includes(role));

/** Roles of the people doing the work in the lab. */
export const CHAT_STAFF_ROLES = ['admin', 'supervisor', 'planner', 'printer'] as const;
/** Roles of the client side: never on the internal channel unless they also hold a staff role. */
export const CHAT_CLIENT_ROLES = ['clinic', 'doctor', 'partner'] as const;
/** Staff who join the clinic channel. */
const CLINIC_CHANNEL_STAFF_ROLES = ['admin', 'supervisor', 'planner'] as const;
/** The clinic's people: case members with one of these roles (the clinic's doctors). */
const CLINIC_PEOPLE_ROLES = ['clinic', 'doctor'] as const;

/**
 * Staff for the internal channel: a staff role, or the internal flag on someone who is not
 * client side (a clinic, doctor or partner with the flag but no staff role stays out).
 */
export function isChatStaff(viewer: Pick<ChatViewer, 'roles' | 'internal'>): boolean {
  if (hasAny(viewer.roles, CHAT_STAFF_ROLES)) return true;
  return viewer.internal && !hasAny(viewer.roles, CHAT_CLIENT_ROLES);
}

const CHANNEL_RULES: Record<
  ChatChannelId,
  (viewer: ChatViewer, relation: CaseRelation, facts: ChatCaseFacts) => boolean
> = {
  // Everyone who sees the case.
  [CHAT_CHANNELS.public]: () => true,
  [CHAT_CHANNELS.internal]: (viewer) => isChatStaff(viewer),
  [CHAT_CHANNELS.clinic]: (viewer, relation, facts) =>
    viewer.userId === facts.ownerId ||
    (relation === 'member' && hasAny(viewer.roles, CLINIC_PEOPLE_ROLES)) ||
    hasAny(viewer.roles, CLINIC_CHANNEL_STAFF_ROLES),
  [CHAT_CHANNELS.instructor]: (viewer, _relation, facts) =>
    facts.ownerInstructorId !== null &&
    (viewer.userId === facts.ownerId ||
      viewer.userId === facts.ownerInstructorId ||
      isSupervisor(viewer.roles)),
};

/**
 * The channels (ids, in spec order) the viewer may read and write on this case; none when the
 * case is hidden from them (`relation` null).
 */
export function allowedChatChannels(
  viewer: ChatViewer,
  relation: CaseRelation | null,
  facts: ChatCaseFacts,
): ChatChannelId[] {
  if (relation === null) return [];
  return CHAT_CHANNEL_IDS.filter((channel) => CHANNEL_RULES[channel](viewer, relation, facts));
}

export function mayUseChatChannel(
  channel: number,
  viewer: ChatViewer,
  relation: CaseRelation | null,
  facts: ChatCaseFacts,
): boolean {
  return (allowedChatChannels(viewer, relation, facts) as number[]).includes(channel);
}
