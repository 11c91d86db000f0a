import { describe, expect, it } from 'vitest';
import { caseRelation, membershipRoleOf, type CaseRelation } from '../cases/case-access';
import {
  allowedChatChannels,
  isChatStaff,
  mayUseChatChannel,
  type ChatViewer,
} from './chat-access';
import { CHAT_CHANNEL_IDS } from './chat';

const OWNER = 1;
const INSTRUCTOR = 2;
const facts = { ownerId: OWNER, ownerInstructorId: INSTRUCTOR };
const withoutInstructor = { ownerId: OWNER, ownerInstructorId: null };

type Row = [
  kind: string,
  viewer: ChatViewer,
  relation: CaseRelation,
  /** Channels with an instructor on the owner. */
  withInstructor: number[],
  /** Channels when the owner has no instructor. */
  noInstructor: number[],
];

const viewer = (userId: number, roles: string[], internal = false): ChatViewer => ({
  userId,
  roles,
  internal,
});

/** Every viewer kind × every channel (docs/permissions.md "Chat channels"). */
const TABLE: Row[] = [
  ['owner doctor', viewer(OWNER, ['doctor']), 'owner', [3, 5, 13], [3, 5]],
  ['owner clinic', viewer(OWNER, ['clinic']), 'owner', [3, 5, 13], [3, 5]],
  ['another doctor added to the case', viewer(10, ['doctor']), 'member', [3, 5], [3, 5]],
  ['a clinic added to the case', viewer(11, ['clinic']), 'member', [3, 5], [3, 5]],
  ['a partner added to the case', viewer(12, ['partner']), 'member', [3], [3]],
  ['the planner of a service', viewer(13, ['planner'], true), 'planner', [3, 4, 5], [3, 4, 5]],
  ['a planner added to the case', viewer(14, ['planner']), 'member', [3, 4, 5], [3, 4, 5]],
  ['a printer (printable case)', viewer(15, ['printer'], true), 'printer', [3, 4], [3, 4]],
  ['a printer added to the case', viewer(16, ['printer']), 'member', [3, 4], [3, 4]],
  ['supervisor', viewer(17, ['supervisor'], true), 'staff', [3, 4, 5, 13], [3, 4, 5]],
  ['admin', viewer(18, ['admin']), 'staff', [3, 4, 5, 13], [3, 4, 5]],
  ["the owner's instructor", viewer(INSTRUCTOR, ['instructor']), 'instructor', [3, 13], [3]],
  [
    "the owner's instructor, also a case user",
    viewer(INSTRUCTOR, ['instructor']),
    'member',
    [3, 13],
    [3],
  ],
  ['another instructor added to the case', viewer(19, ['instructor']), 'member', [3], [3]],
  ['an internal-flag user added to the case', viewer(20, [], true), 'member', [3, 4], [3, 4]],
  [
    'an internal-flag instructor added to the case',
    viewer(21, ['instructor'], true),
    'member',
    [3, 4],
    [3, 4],
  ],
  [
    'an internal-flag doctor added to the case',
    viewer(22, ['doctor'], true),
    'member',
    [3, 5],
    [3, 5],
  ],
  [
    'an internal-flag clinic added to the case',
    viewer(23, ['clinic'], true),
    'member',
    [3, 5],
    [3, 5],
  ],
  ['an internal-flag partner added to the case', viewer(24, ['partner'], true), 'member', [3], [3]],
  ['an internal-flag owner doctor', viewer(OWNER, ['doctor'], true), 'owner', [3, 5, 13], [3, 5]],
  [
    'a doctor who is also a planner, added to the case',
    viewer(25, ['doctor', 'planner']),
    'member',
    [3, 4, 5],
    [3, 4, 5],
  ],
];

describe('chat channels per case (3 public, 4 internal, 5 clinic, 13 instructor)', () => {
  describe.each(TABLE)('%s', (_kind, who, relation, withInstructor, noInstructor) => {
    it.each(CHAT_CHANNEL_IDS.map((channel) => [channel]))('channel %i', (channel) => {
      expect(mayUseChatChannel(channel, who, relation, facts)).toBe(
        withInstructor.includes(channel),
      );
      expect(mayUseChatChannel(channel, who, relation, withoutInstructor)).toBe(
        noInstructor.includes(channel),
      );
    });
    it('lists them in spec order', () => {
      expect(allowedChatChannels(who, relation, facts)).toEqual(withInstructor);
      expect(allowedChatChannels(who, relation, withoutInstructor)).toEqual(noInstructor);
    });
  });

  it('a hidden case has no channels, whatever the roles', () => {
    expect(allowedChatChannels(viewer(9, ['admin'], true), null, facts)).toEqual([]);
    expect(mayUseChatChannel(3, viewer(9, ['doctor']), null, facts)).toBe(false);
  });

  it('an unknown channel is never allowed', () => {
    for (const channel of [0, 1, 7, 99]) {
      expect(mayUseChatChannel(channel, viewer(18, ['admin'], true), 'staff', facts)).toBe(false);
    }
  });

  it('the relations in the table are what caseRelation gives those viewers', () => {
    const visibility = {
      ...facts,
      caseStatus: 'print',
      // Added by staff: each membership comes from the role the domain names for its roles.
      members: TABLE.filter(
        ([kind, , relation]) => relation === 'member' && !kind.includes('also a case user'),
      ).map(([, who]) => ({
        userId: who.userId,
        viaRole: membershipRoleOf(who.roles),
      })),
      plannerIds: [13],
      hasPrintable: true,
    };
    for (const [kind, who, relation] of TABLE) {
      if (kind.includes('also a case user')) continue;
      expect(caseRelation(who, visibility), kind).toBe(relation);
    }
  });
});

describe('internal channel staff', () => {
  it.each([
    [['admin'], false, true],
    [['supervisor'], false, true],
    [['planner'], false, true],
    [['printer'], false, true],
    [[], true, true],
    [['instructor'], true, true],
    [['clinic'], true, false],
    [['doctor'], true, false],
    [['partner'], true, false],
    [['doctor', 'printer'], false, true],
    [['instructor'], false, false],
    [[], false, false],
  ])('%j internal=%s → %s', (roles, internal, staff) =>
    expect(isChatStaff({ roles, internal })).toBe(staff),
  );
});
