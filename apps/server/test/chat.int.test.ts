import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatChannels, ChatMessageView, ChatPage } from '@dentflow/domain';
import { caseEvents, cases, chatMessages, notifications, users } from '../src/db/schema';
import {
  caseApi,
  caseInStatus,
  codeOf,
  createUser,
  demoSessions,
  objOf,
} from './support/cases-fixtures';
import { bearer, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * The case chat on real PostgreSQL — every channel's permission cell
 * with real users, paging, delete rules, view records and unread counts, bad input, and the
 * notifications a message creates (right users only, same transaction).
 */
let t: TestApp;
let u: Record<string, Session>;
/** finishing, printable, owned by the demo doctor (whose instructor is the demo instructor). */
let mainCase: number;
/** new, owned by a doctor without an instructor. */
let noInstructorCase: number;

const CHANNELS = [3, 4, 5, 13] as const;

const chat = (
  session: Session,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method,
    url: `/api/v1/case/${url}`,
    headers: bearer(session),
    ...(payload ? { payload } : {}),
  });

async function post(session: Session, caseId: number, channel: number, text: string) {
  const response = await chat(session, 'POST', `${caseId}/chat/${channel}`, { text });
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return objOf<ChatMessageView>(response);
}

async function addCaseUser(caseId: number, member: Session) {
  const response = await caseApi(t.app)(u.supervisor!, 'POST', `${caseId}/users`, {
    userId: member.profile.id,
    triggerNotification: true,
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function setInternal(session: Session) {
  await t.app.database.db
    .update(users)
    .set({ internal: true })
    .where(eq(users.id, session.profile.id));
}

/** Who got a notification about this message. */
async function notifiedAbout(message: ChatMessageView): Promise<number[]> {
  const rows = await t.app.database.db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(
      and(eq(notifications.resourceId, message.id), eq(notifications.eventType, message.channel)),
    );
  return rows.map((row) => row.userId).sort((a, b) => a - b);
}

const ids = (...sessions: Session[]) => sessions.map((s) => s.profile.id).sort((a, b) => a - b);

beforeAll(async () => {
  t = await startTestApp();
  const demo = await demoSessions(t.app);
  u = {
    ...demo,
    doctorMember: await createUser(t.app, ['doctor']),
    clinicMember: await createUser(t.app, ['clinic']),
    internalUser: await createUser(t.app, []),
    internalDoctor: await createUser(t.app, ['doctor']),
    otherDoctor: await createUser(t.app, ['doctor']),
    otherPlanner: await createUser(t.app, ['planner']),
    soloDoctor: await createUser(t.app, ['doctor']),
  };
  await setInternal(u.internalUser!);
  await setInternal(u.internalDoctor!);
  const setup = {
    app: t.app,
    owner: u.doctor!,
    supervisor: u.supervisor!,
    planner: u.planner!,
    printer: u.printer!,
  };
  mainCase = await caseInStatus(setup, 'finishing', { productCode: 'MFG-GUIDE' });
  for (const member of [
    'doctorMember',
    'clinicMember',
    'partner',
    'internalUser',
    'internalDoctor',
  ]) {
    await addCaseUser(mainCase, u[member]!);
  }
  noInstructorCase = await caseInStatus({ ...setup, owner: u.soloDoctor! }, 'new');
});
afterAll(async () => {
  await t?.close();
});

/** user → the channels they use on mainCase (404: the case is hidden from them). */
const MAIN_TABLE: Record<string, readonly number[] | 404> = {
  doctor: [3, 5, 13],
  clinicMember: [3, 5],
  doctorMember: [3, 5],
  partner: [3],
  planner: [3, 4, 5],
  printer: [3, 4],
  supervisor: [3, 4, 5, 13],
  admin: [3, 4, 5, 13],
  instructor: [3, 13],
  internalUser: [3, 4],
  internalDoctor: [3, 5],
  otherDoctor: 404,
  otherPlanner: 404,
  clinic: 404,
};

/** The same for noInstructorCase: no instructor channel for anyone. */
const NO_INSTRUCTOR_TABLE: Record<string, readonly number[] | 404> = {
  soloDoctor: [3, 5],
  supervisor: [3, 4, 5],
  admin: [3, 4, 5],
  instructor: 404,
  doctor: 404,
  partner: 404,
};

describe.each([
  ['the case of a student', () => mainCase, MAIN_TABLE],
  ['a case whose owner has no instructor', () => noInstructorCase, NO_INSTRUCTOR_TABLE],
] as const)('channel permissions on %s', (_name, caseOf, table) => {
  describe.each(Object.entries(table))('%s', (user, allowed) => {
    it('lists exactly the allowed channels', async () => {
      const response = await chat(u[user]!, 'GET', `${caseOf()}/chat`);
      if (allowed === 404) {
        expect(response.statusCode).toBe(404);
        expect(codeOf(response)).toBe('NOT_FOUND');
        return;
      }
      expect(response.statusCode).toBe(200);
      const { channels } = objOf<ChatChannels>(response);
      expect(channels.map((c) => c.channel)).toEqual(allowed);
    });

    it.each(CHANNELS.map((channel) => [channel]))(
      'channel %i: read, write and mark seen only when allowed',
      async (channel) => {
        const expected = allowed === 404 ? 404 : allowed.includes(channel) ? 200 : 403;
        const read = await chat(u[user]!, 'GET', `${caseOf()}/chat/${channel}`);
        expect(read.statusCode).toBe(expected);
        const write = await chat(u[user]!, 'POST', `${caseOf()}/chat/${channel}`, {
          text: `${user} on ${channel}`,
        });
        expect(write.statusCode).toBe(expected);
        const seen = await chat(u[user]!, 'POST', `${caseOf()}/chat/${channel}/seen`, {
          upTo: 2_147_483_647,
        });
        expect(seen.statusCode).toBe(expected);
        if (expected === 200) {
          const message = objOf<ChatMessageView>(write);
          expect(message).toMatchObject({
            caseId: caseOf(),
            channel,
            author: { id: u[user]!.profile.id },
            text: `${user} on ${channel}`,
            deleted: false,
            canDelete: true,
          });
          expect(objOf<{ lastSeenMessageId: number }>(seen).lastSeenMessageId).toBe(message.id);
        } else {
          expect(codeOf(write)).toBe(expected === 404 ? 'NOT_FOUND' : 'FORBIDDEN');
        }
      },
    );
  });
});

describe('paging', () => {
  let pagedCase: number;
  let posted: number[];

  beforeAll(async () => {
    pagedCase = await caseInStatus(
      {
        app: t.app,
        owner: u.doctor!,
        supervisor: u.supervisor!,
        planner: u.planner!,
        printer: u.printer!,
      },
      'new',
    );
    posted = [];
    for (let i = 1; i <= 60; i++) posted.push((await post(u.doctor!, pagedCase, 3, `m${i}`)).id);
  });

  it('answers the newest 30 first, then the older ones before a message id', async () => {
    const first = objOf<ChatPage>(await chat(u.doctor!, 'GET', `${pagedCase}/chat/3`));
    expect(first.items.map((m) => m.id)).toEqual(posted.slice(30).reverse());
    expect(first.items[0]!.text).toBe('m60');
    expect(first.hasMore).toBe(true);
    const before = first.items.at(-1)!.id;
    const second = objOf<ChatPage>(
      await chat(u.doctor!, 'GET', `${pagedCase}/chat/3?before=${before}`),
    );
    expect(second.items.map((m) => m.id)).toEqual(posted.slice(0, 30).reverse());
    expect(second.hasMore).toBe(false);
  });

  it('takes a limit up to 100 and says whether older messages remain', async () => {
    const page = async (query: string) =>
      objOf<ChatPage>(await chat(u.supervisor!, 'GET', `${pagedCase}/chat/3?${query}`));
    expect((await page('limit=100')).items).toHaveLength(60);
    expect((await page('limit=100')).hasMore).toBe(false);
    expect((await page('limit=60')).hasMore).toBe(false);
    const fiftyNine = await page('limit=59');
    expect(fiftyNine.hasMore).toBe(true);
    expect(fiftyNine.items.at(-1)!.text).toBe('m2');
    const last = await page(`limit=5&before=${posted[3]}`);
    expect(last.items.map((m) => m.text)).toEqual(['m3', 'm2', 'm1']);
    expect(last.hasMore).toBe(false);
    expect((await page(`before=${posted[0]}`)).items).toEqual([]);
  });

  it('counts every message of the channel (qtdMsg) and the unread ones of others', async () => {
    const mine = objOf<ChatChannels>(await chat(u.doctor!, 'GET', `${pagedCase}/chat`));
    expect(mine.channels.find((c) => c.channel === 3)).toEqual({
      channel: 3,
      qtdMsg: 60,
      unread: 0,
    });
    const staff = objOf<ChatChannels>(await chat(u.supervisor!, 'GET', `${pagedCase}/chat`));
    expect(staff.channels).toEqual([
      { channel: 3, qtdMsg: 60, unread: 60 },
      { channel: 4, qtdMsg: 0, unread: 0 },
      { channel: 5, qtdMsg: 0, unread: 0 },
      { channel: 13, qtdMsg: 0, unread: 0 },
    ]);
  });

  it.each([
    'before=abc',
    'before=0',
    'before=-1',
    'before=2147483648',
    'limit=0',
    'limit=101',
    'limit=abc',
  ])('refuses %s with a translated 400', async (query) => {
    const response = await chat(u.doctor!, 'GET', `${pagedCase}/chat/3?${query}`);
    expect(response.statusCode).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_ERROR');
  });
});

describe('deleting a message', () => {
  const sendAtAgo = async (messageId: number, minutes: number) => {
    await t.app.database.db
      .update(chatMessages)
      .set({ sendAt: sql`now() - make_interval(mins => ${minutes})` })
      .where(eq(chatMessages.id, messageId));
  };
  const remove = (session: Session, caseId: number, messageId: number | string) =>
    chat(session, 'DELETE', `${caseId}/chat/message/${messageId}`);

  it('lets the author delete within 15 minutes; the message keeps its place as deleted', async () => {
    const message = await post(u.doctor!, mainCase, 3, 'oops');
    await sendAtAgo(message.id, 14);
    const response = await remove(u.doctor!, mainCase, message.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(objOf<ChatMessageView>(response)).toMatchObject({
      id: message.id,
      text: '',
      deleted: true,
      canDelete: false,
    });
    const page = objOf<ChatPage>(await chat(u.partner!, 'GET', `${mainCase}/chat/3?limit=100`));
    expect(page.items.find((m) => m.id === message.id)).toMatchObject({ text: '', deleted: true });
    const [row] = await t.app.database.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.id, message.id));
    expect(row).toMatchObject({ text: '', deletedBy: u.doctor!.profile.id });
    expect(row!.deletedAt).not.toBeNull();

    const again = await remove(u.doctor!, mainCase, message.id);
    expect(again.statusCode).toBe(409);
  });

  it('refuses the author after 15 minutes; a supervisor deletes at any time', async () => {
    const message = await post(u.doctor!, mainCase, 3, 'old news');
    await sendAtAgo(message.id, 16);
    const page = objOf<ChatPage>(await chat(u.doctor!, 'GET', `${mainCase}/chat/3`));
    expect(page.items.find((m) => m.id === message.id)!.canDelete).toBe(false);
    const late = await remove(u.doctor!, mainCase, message.id);
    expect(late.statusCode).toBe(403);
    expect(codeOf(late)).toBe('FORBIDDEN');
    await sendAtAgo(message.id, 60 * 24 * 30);
    const bySupervisor = await remove(u.supervisor!, mainCase, message.id);
    expect(bySupervisor.statusCode).toBe(200);
    expect(objOf<ChatMessageView>(bySupervisor).deleted).toBe(true);
    const again = await remove(u.supervisor!, mainCase, message.id);
    expect(again.statusCode).toBe(409);
  });

  it('refuses everyone else who sees the message (403); shows who may delete', async () => {
    const message = await post(u.doctor!, mainCase, 3, 'mine');
    for (const other of ['partner', 'planner', 'instructor', 'clinicMember', 'printer']) {
      const response = await remove(u[other]!, mainCase, message.id);
      expect(response.statusCode, other).toBe(403);
    }
    const canDeleteFor = async (user: string) =>
      objOf<ChatPage>(await chat(u[user]!, 'GET', `${mainCase}/chat/3`)).items.find(
        (m) => m.id === message.id,
      )!.canDelete;
    expect(await canDeleteFor('doctor')).toBe(true);
    expect(await canDeleteFor('supervisor')).toBe(true);
    expect(await canDeleteFor('admin')).toBe(true);
    expect(await canDeleteFor('partner')).toBe(false);
    expect(await canDeleteFor('planner')).toBe(false);
    expect((await remove(u.admin!, mainCase, message.id)).statusCode).toBe(200);
  });

  it('hides a message of a channel, or a case, the caller may not see (404)', async () => {
    const internal = await post(u.planner!, mainCase, 4, 'staff only');
    expect((await remove(u.partner!, mainCase, internal.id)).statusCode).toBe(404);
    expect((await remove(u.doctor!, mainCase, internal.id)).statusCode).toBe(404);
    expect((await remove(u.otherDoctor!, mainCase, internal.id)).statusCode).toBe(404);
    // The message belongs to another case than the one in the path.
    expect((await remove(u.supervisor!, noInstructorCase, internal.id)).statusCode).toBe(404);
    expect((await remove(u.supervisor!, mainCase, 2_000_000_000)).statusCode).toBe(404);
    const stillThere = objOf<ChatPage>(await chat(u.planner!, 'GET', `${mainCase}/chat/4`));
    expect(stillThere.items.find((m) => m.id === internal.id)!.deleted).toBe(false);
  });

  it.each(['abc', '0', '-3', '1.5', '2147483648'])(
    'refuses message id %s with a 400',
    async (messageId) => {
      const response = await remove(u.supervisor!, mainCase, messageId);
      expect(response.statusCode).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_ERROR');
    },
  );
});

describe('view records and unread counts', () => {
  let seenCase: number;
  let m: ChatMessageView[];
  const seen = (session: Session, upTo: unknown, channel = 3) =>
    chat(session, 'POST', `${seenCase}/chat/${channel}/seen`, { upTo });
  const countsOf = async (session: Session) =>
    objOf<ChatChannels>(await chat(session, 'GET', `${seenCase}/chat`)).channels.find(
      (c) => c.channel === 3,
    );

  beforeAll(async () => {
    seenCase = await caseInStatus(
      {
        app: t.app,
        owner: u.doctor!,
        supervisor: u.supervisor!,
        planner: u.planner!,
        printer: u.printer!,
      },
      'new',
    );
    await addCaseUser(seenCase, u.clinicMember!);
    m = [];
    for (const text of ['one', 'two', 'three']) m.push(await post(u.doctor!, seenCase, 3, text));
  });

  it('counts the unread messages of others and moves the view record forward only', async () => {
    expect(await countsOf(u.clinicMember!)).toEqual({ channel: 3, qtdMsg: 3, unread: 3 });
    expect(await countsOf(u.doctor!)).toEqual({ channel: 3, qtdMsg: 3, unread: 0 });

    const second = await seen(u.clinicMember!, m[1]!.id);
    expect(objOf(second)).toEqual({ lastSeenMessageId: m[1]!.id, unread: 1 });
    const backwards = await seen(u.clinicMember!, m[0]!.id);
    expect(objOf(backwards)).toEqual({ lastSeenMessageId: m[1]!.id, unread: 1 });
    const page = objOf<ChatPage>(await chat(u.clinicMember!, 'GET', `${seenCase}/chat/3`));
    expect(page).toMatchObject({ lastSeenMessageId: m[1]!.id, unread: 1 });

    // Read marks: the author sees who else read each message.
    const authorView = objOf<ChatPage>(await chat(u.doctor!, 'GET', `${seenCase}/chat/3`));
    expect(authorView.items.map((x) => [x.text, x.seenBy])).toEqual([
      ['three', 0],
      ['two', 1],
      ['one', 1],
    ]);

    // Past the newest message: clamped to it.
    const all = await seen(u.clinicMember!, 2_147_483_647);
    expect(objOf(all)).toEqual({ lastSeenMessageId: m[2]!.id, unread: 0 });
  });

  it('counts a new message of another as unread, and a deleted one no more', async () => {
    const reply = await post(u.clinicMember!, seenCase, 3, 'reply');
    expect(await countsOf(u.doctor!)).toEqual({ channel: 3, qtdMsg: 4, unread: 1 });
    expect(await countsOf(u.clinicMember!)).toEqual({ channel: 3, qtdMsg: 4, unread: 0 });
    const removed = await chat(u.clinicMember!, 'DELETE', `${seenCase}/chat/message/${reply.id}`);
    expect(removed.statusCode).toBe(200);
    expect(await countsOf(u.doctor!)).toEqual({ channel: 3, qtdMsg: 4, unread: 0 });
  });

  it('refuses a channel the caller may not use (403) and a hidden case (404)', async () => {
    expect((await seen(u.clinicMember!, m[0]!.id, 4)).statusCode).toBe(403);
    expect((await seen(u.partner!, m[0]!.id)).statusCode).toBe(404);
  });

  it.each([[0], [-1], ['abc'], [1.5], [null], [2_147_483_648]])(
    'refuses upTo %j with a 400',
    async (upTo) => {
      const response = await seen(u.doctor!, upTo);
      expect(response.statusCode).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_ERROR');
    },
  );

  it('refuses an empty body and a channel without any message up to upTo (400)', async () => {
    const empty = await chat(u.doctor!, 'POST', `${seenCase}/chat/3/seen`, {});
    expect(empty.statusCode).toBe(400);
    const noMessages = await seen(u.doctor!, m[2]!.id, 5);
    expect(noMessages.statusCode).toBe(400);
    expect(json400Field(noMessages)).toContain('upTo');
  });
});

const json400Field = (response: LightMyRequestResponse) =>
  Object.keys(response.json<{ fields?: Record<string, string> }>().fields ?? {});

describe('writing: text rules and bad input', () => {
  it('trims the text and takes 1 to 2000 characters', async () => {
    const trimmed = await post(u.doctor!, mainCase, 3, '   hello   ');
    expect(trimmed.text).toBe('hello');
    const longest = await post(u.doctor!, mainCase, 3, 'x'.repeat(2000));
    expect(longest.text).toHaveLength(2000);
  });

  it.each([
    ['empty', { text: '' }],
    ['blank', { text: '    ' }],
    ['2001 characters', { text: 'x'.repeat(2001) }],
    ['missing', {}],
    ['not a string', { text: 12 }],
    ['with NUL', { text: 'bad\u0000text' }],
  ])('refuses text %s with a 400 on the text field', async (_name, body) => {
    const response = await chat(u.doctor!, 'POST', `${mainCase}/chat/3`, body);
    expect(response.statusCode).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_ERROR');
    expect(json400Field(response)).toContain('text');
  });

  it.each([['7'], ['0'], ['abc'], ['3.5'], ['-3']])(
    'refuses channel %s with a 400 on every route',
    async (channel) => {
      for (const [method, url, body] of [
        ['GET', `${mainCase}/chat/${channel}`, undefined],
        ['POST', `${mainCase}/chat/${channel}`, { text: 'hi' }],
        ['POST', `${mainCase}/chat/${channel}/seen`, { upTo: 1 }],
      ] as const) {
        const response = await chat(u.admin!, method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(codeOf(response)).toBe('VALIDATION_ERROR');
      }
    },
  );

  it.each([['0'], ['abc'], ['-1'], ['2147483648']])(
    'refuses case id %s with a 400',
    async (caseId) => {
      for (const [method, url, body] of [
        ['GET', `${caseId}/chat`, undefined],
        ['GET', `${caseId}/chat/3`, undefined],
        ['POST', `${caseId}/chat/3`, { text: 'hi' }],
        ['POST', `${caseId}/chat/3/seen`, { upTo: 1 }],
        ['DELETE', `${caseId}/chat/message/1`, undefined],
      ] as const) {
        const response = await chat(u.admin!, method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(400);
      }
    },
  );

  it('answers 404 for a case that does not exist', async () => {
    for (const [method, url, body] of [
      ['GET', '2000000000/chat', undefined],
      ['GET', '2000000000/chat/3', undefined],
      ['POST', '2000000000/chat/3', { text: 'hi' }],
      ['POST', '2000000000/chat/3/seen', { upTo: 1 }],
      ['DELETE', '2000000000/chat/message/1', undefined],
    ] as const) {
      const response = await chat(u.admin!, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('asks for a session on every route', async () => {
    for (const [method, url] of [
      ['GET', `${mainCase}/chat`],
      ['GET', `${mainCase}/chat/3`],
      ['POST', `${mainCase}/chat/3`],
      ['POST', `${mainCase}/chat/3/seen`],
      ['DELETE', `${mainCase}/chat/message/1`],
    ] as const) {
      const response = await t.app.inject({ method, url: `/api/v1/case/${url}` });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("quotes only one of the caller's own notifications of this case", async () => {
    const fromPlanner = await post(u.planner!, mainCase, 5, 'please check the guide');
    const [own] = await t.app.database.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.resourceId, fromPlanner.id),
          eq(notifications.userId, u.doctor!.profile.id),
        ),
      );
    expect(own).toBeDefined();
    const quoting = await chat(u.doctor!, 'POST', `${mainCase}/chat/5`, {
      text: 'checked',
      quotedNotification: own!.id,
    });
    expect(quoting.statusCode, quoting.body).toBe(200);
    expect(objOf<ChatMessageView>(quoting).quotedNotification).toBe(own!.id);

    const [othersNotification] = await t.app.database.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.resourceId, fromPlanner.id),
          eq(notifications.userId, u.clinicMember!.profile.id),
        ),
      );
    for (const quotedNotification of [othersNotification!.id, 2_000_000_000]) {
      const response = await chat(u.doctor!, 'POST', `${mainCase}/chat/5`, {
        text: 'quoting',
        quotedNotification,
      });
      expect(response.statusCode).toBe(400);
      expect(json400Field(response)).toContain('quotedNotification');
    }
    const bad = await chat(u.doctor!, 'POST', `${mainCase}/chat/5`, {
      text: 'quoting',
      quotedNotification: 'x',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('notifications of a new message', () => {
  const members = () => [
    u.doctorMember!,
    u.clinicMember!,
    u.partner!,
    u.internalUser!,
    u.internalDoctor!,
  ];

  // Setting the planner made them a case user too.
  it('public: the owner and every case user, never the author', async () => {
    const message = await post(u.planner!, mainCase, 3, 'the plan is ready');
    expect(await notifiedAbout(message)).toEqual(ids(u.doctor!, ...members()));
    const fromOwner = await post(u.doctor!, mainCase, 3, 'thanks');
    expect(await notifiedAbout(fromOwner)).toEqual(ids(u.planner!, ...members()));
  });

  it('internal: only staff among the case people (never a doctor, clinic or partner)', async () => {
    const message = await post(u.supervisor!, mainCase, 4, 'internal note');
    expect(await notifiedAbout(message)).toEqual(ids(u.planner!, u.internalUser!));
    const fromPlanner = await post(u.planner!, mainCase, 4, 'seen it');
    expect(await notifiedAbout(fromPlanner)).toEqual(ids(u.internalUser!));
    const fromInternal = await post(u.internalUser!, mainCase, 4, 'me too');
    expect(await notifiedAbout(fromInternal)).toEqual(ids(u.planner!));
  });

  it("clinic: the owner and the clinic's people, not the partner or internal staff", async () => {
    const message = await post(u.planner!, mainCase, 5, 'for the clinic');
    expect(await notifiedAbout(message)).toEqual(
      ids(u.doctor!, u.doctorMember!, u.clinicMember!, u.internalDoctor!),
    );
  });

  it('instructor: the student, not the other case users', async () => {
    const message = await post(u.instructor!, mainCase, 13, 'look at the margins');
    expect(await notifiedAbout(message)).toEqual(ids(u.doctor!));
  });

  it("instructor: the student's message reaches the instructor, who is not a case user", async () => {
    const message = await post(u.doctor!, mainCase, 13, 'is this margin right?');
    expect(await notifiedAbout(message)).toEqual(ids(u.instructor!));
  });

  it('records the path, type and actor, and leaves the case and its history alone', async () => {
    const db = t.app.database.db;
    const caseRow = async () =>
      (
        await db.select({ modifiedAt: cases.modifiedAt }).from(cases).where(eq(cases.id, mainCase))
      )[0]!;
    const eventCount = async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(caseEvents)
          .where(eq(caseEvents.caseId, mainCase))
      )[0]!.n;
    const before = { row: await caseRow(), events: await eventCount() };
    const message = await post(u.doctorMember!, mainCase, 5, 'a question');
    const rows = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.resourceId, message.id), eq(notifications.eventType, 5)));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatchObject({
        caseId: mainCase,
        actorId: u.doctorMember!.profile.id,
        path: `/case/${mainCase}?tab=chat&channel=5`,
      });
    }
    expect((await caseRow()).modifiedAt).toEqual(before.row.modifiedAt);
    expect(await eventCount()).toBe(before.events);
  });

  it('a refused message notifies nobody', async () => {
    const countFor = async (channel: number) =>
      (
        await t.app.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(notifications)
          .where(and(eq(notifications.caseId, mainCase), eq(notifications.eventType, channel)))
      )[0]!.n;
    const before = await countFor(4);
    expect(
      (await chat(u.partner!, 'POST', `${mainCase}/chat/4`, { text: 'let me in' })).statusCode,
    ).toBe(403);
    expect(await countFor(4)).toBe(before);
  });
});
