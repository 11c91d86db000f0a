import type { AddressInfo } from 'node:net';
import { decodeJwt, SignJWT } from 'jose';
import { io as connectSocket, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_CHANNEL_IDS, CHAT_CHANNELS } from '@dentflow/domain';
import { createLiveUpdates } from '../src/adapters/live/live-updates';
import {
  attachSocketServer,
  MAX_CASES_PER_SOCKET,
  SOCKET_PATH,
  type CaseJoinAnswer,
  type SocketServer,
} from '../src/adapters/live/socket-server';
import { createMemoryCounters } from '../src/adapters/rate-limit/rate-counters';
import { noZipLookup } from '../src/adapters/zip-lookup/zip-lookup';
import type { AppContext } from '../src/context';
import { noMetrics } from '../src/metrics/metrics-port';
import { createAuthService } from '../src/modules/auth/auth.service';
import { allowedChannels } from '../src/modules/chat/chat-access';
import { createPasswordChecks } from '../src/security/password-checks';
import { createAccessTokens } from '../src/security/tokens';
import { caseApi, createUser, objOf } from './support/cases-fixtures';
import { bearer, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * On real PostgreSQL (and the local Redis for two instances): who may
 * connect, which rooms a socket gets, and that a change reaches exactly the allowed clients.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** How long a live update may take (issue §5). */
const WITHIN_MS = 1000;

interface Instance {
  test: TestApp;
  sockets: SocketServer;
  url: string;
}

const instances: Instance[] = [];
const clients: ClientSocket[] = [];

/** A test app with its socket server, listening on a free local port. */
async function startInstance(
  env: Record<string, string> = {},
  options: { databaseUrl?: string } = {},
): Promise<Instance> {
  const test = await startTestApp(env, options);
  const ctx: AppContext = {
    config: test.config,
    db: test.app.database.db,
    mail: test.app.mail,
    accessTokens: createAccessTokens(test.config.jwtSecret),
    zipLookup: noZipLookup,
    storage: test.app.files.storage,
    log: test.app.log,
    caseEvents: test.app.caseEvents,
    live: createLiveUpdates(),
    passwordChecks: createPasswordChecks(createMemoryCounters(), test.config.rateLimit),
    metrics: noMetrics,
  };
  const sockets = await attachSocketServer(test.app, ctx, {
    loadSession: createAuthService(ctx).loadSession,
    allowedChannels,
  });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = test.app.server.address() as AddressInfo;
  const instance = { test, sockets, url: `http://127.0.0.1:${port}` };
  instances.push(instance);
  return instance;
}

/** A client socket (not yet connected) recording every event it receives. */
function client(instance: Instance, token: string | undefined) {
  const socket = connectSocket(instance.url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    autoConnect: false,
    auth: token === undefined ? {} : { token },
  });
  clients.push(socket);
  const received: { name: string; event: Record<string, unknown> }[] = [];
  socket.onAny((name: string, event: Record<string, unknown>) => received.push({ name, event }));
  return { socket, received };
}

/** Connects; resolves once connected, rejects with the server's refusal. */
function connect(socket: ClientSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
    socket.connect();
  });
}

async function connected(instance: Instance, session: Session) {
  const peer = client(instance, session.accessToken);
  await connect(peer.socket);
  return peer;
}

const joinCase = (socket: ClientSocket, caseId: unknown): Promise<CaseJoinAnswer> =>
  socket.timeout(5000).emitWithAck('case:join', { caseId });

/** Resolves once `check` holds, failing after `ms`. */
async function until(check: () => boolean, ms = WITHIN_MS, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const changesOf = (received: { name: string; event: Record<string, unknown> }[], caseId: number) =>
  received.filter((r) => r.name === 'case.changed' && r.event.caseId === caseId);

async function openCase(instance: Instance, owner: Session): Promise<number> {
  const response = await caseApi(instance.test.app)(owner, 'POST', 'new', {
    patient: { fname: 'Live', lname: 'Update' },
  });
  expect(response.statusCode).toBe(200);
  return objOf(response).id;
}

/** Changes the case's observation through the API (one 'updated' case event). */
async function changeCase(instance: Instance, session: Session, caseId: number): Promise<void> {
  const api = caseApi(instance.test.app);
  const { modifiedAt } = objOf(await api(session, 'GET', `${caseId}/get`));
  const response = await api(session, 'POST', `${caseId}/set`, {
    observation: `changed at ${Date.now()}`,
    modifiedAt,
  });
  expect(response.statusCode).toBe(200);
}

let single: Instance;
let doctor: Session;
let otherDoctor: Session;
let supervisor: Session;
let doctorCase: number;

beforeAll(async () => {
  single = await startInstance();
  doctor = await login(single.test.app, 'doctor');
  supervisor = await login(single.test.app, 'supervisor');
  otherDoctor = await createUser(single.test.app, ['doctor']);
  doctorCase = await openCase(single, doctor);
});

afterAll(async () => {
  for (const socket of clients) socket.disconnect();
  for (const instance of instances.reverse()) {
    await instance.sockets.close();
    await instance.test.close();
  }
});

describe('connecting', () => {
  it('refuses a connection without a token, with a bad token or for a closed session', async () => {
    const signedOut = await login(single.test.app, 'doctor');
    const logout = await single.test.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: bearer(signedOut),
      payload: { refresh_token: signedOut.refreshToken },
    });
    expect(logout.statusCode).toBe(200);
    for (const token of [
      undefined,
      '',
      'not-a-token',
      `${doctor.accessToken}x`,
      signedOut.accessToken,
    ]) {
      const { socket } = client(single, token);
      await expect(connect(socket), String(token)).rejects.toThrow('NOT_AUTHORIZED');
      expect(socket.connected).toBe(false);
    }
    // The same server accepts a valid token (the refusals above are not a broken server).
    const { socket } = await connected(single, doctor);
    expect(socket.connected).toBe(true);
  });

  it('disconnects a socket whose session closed when it next asks to join a case', async () => {
    const session = await login(single.test.app, 'doctor');
    const peer = await connected(single, session);
    const reasons: string[] = [];
    peer.socket.on('disconnect', (reason) => reasons.push(reason));
    expect(await joinCase(peer.socket, doctorCase)).toMatchObject({ ok: true });
    const logout = await single.test.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: bearer(session),
      payload: { refresh_token: session.refreshToken },
    });
    expect(logout.statusCode).toBe(200);
    peer.socket.emit('case:join', { caseId: doctorCase });
    await until(() => reasons.length > 0, 2000, 'disconnect');
    expect(reasons).toEqual(['io server disconnect']);
  });

  it('disconnects at the token expiry; the expired token cannot connect again, a fresh one can', async () => {
    const key = new TextEncoder().encode(single.test.config.jwtSecret);
    // Signed like `createAccessTokens` does, for the doctor's open session, but for 2 seconds.
    const shortLived = await new SignJWT({ sid: decodeJwt(doctor.accessToken).sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(doctor.profile.id))
      .setIssuer('dentflow')
      .setAudience('dentflow-api')
      .setIssuedAt()
      .setExpirationTime('2s')
      .sign(key);
    const peer = client(single, shortLived);
    const reasons: string[] = [];
    peer.socket.on('disconnect', (reason) => reasons.push(reason));
    await connect(peer.socket);
    await until(() => reasons.length > 0, 3500, 'disconnect at expiry');
    expect(reasons).toEqual(['io server disconnect']);
    await expect(connect(peer.socket)).rejects.toThrow('NOT_AUTHORIZED');
    const fresh = await connected(single, await login(single.test.app, 'doctor'));
    expect(fresh.socket.connected).toBe(true);
  });
});

describe('rooms after the API checks', () => {
  it('sends a case change to a client that joined the case, within a second', async () => {
    const peer = await connected(single, doctor);
    const answer = await joinCase(peer.socket, doctorCase);
    expect(answer).toMatchObject({ ok: true });
    // The chat module's channels for the owner: never the internal one.
    expect(answer.ok && answer.channels).toContain(CHAT_CHANNELS.public);
    expect(answer.ok && answer.channels).not.toContain(CHAT_CHANNELS.internal);
    const started = Date.now();
    await changeCase(single, doctor, doctorCase);
    await until(() => changesOf(peer.received, doctorCase).length === 1);
    expect(Date.now() - started).toBeLessThan(WITHIN_MS + 500);
    expect(changesOf(peer.received, doctorCase)[0]!.event).toEqual({
      type: 'case.changed',
      caseId: doctorCase,
      action: 'updated',
    });
  });

  it("refuses another doctor's case: ack ok false and none of its events", async () => {
    const owner = await connected(single, doctor);
    const stranger = await connected(single, otherDoctor);
    expect(await joinCase(owner.socket, doctorCase)).toMatchObject({ ok: true });
    expect(await joinCase(stranger.socket, doctorCase)).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await joinCase(stranger.socket, 999_999_999)).toEqual({ ok: false, code: 'NOT_FOUND' });
    for (const bad of [0, -1, 'x', 1.5, null]) {
      expect(await joinCase(stranger.socket, bad)).toEqual({ ok: false, code: 'BAD_REQUEST' });
    }
    // The stranger's own case: joined after the refused one, so its event comes later.
    const strangerCase = await openCase(single, otherDoctor);
    expect(await joinCase(stranger.socket, strangerCase)).toMatchObject({ ok: true });

    await changeCase(single, doctor, doctorCase);
    await changeCase(single, otherDoctor, strangerCase);
    await until(() => changesOf(owner.received, doctorCase).length === 1);
    await until(() => changesOf(stranger.received, strangerCase).length === 1);
    expect(changesOf(stranger.received, doctorCase)).toEqual([]);
    expect(changesOf(owner.received, strangerCase)).toEqual([]);
  });

  it('keeps a doctor out of the internal channel room; staff get it', async () => {
    const doctorPeer = await connected(single, doctor);
    const staffPeer = await connected(single, supervisor);
    expect(await joinCase(doctorPeer.socket, doctorCase)).toMatchObject({ ok: true });
    const staffJoin = await joinCase(staffPeer.socket, doctorCase);
    expect(staffJoin).toMatchObject({ ok: true });
    expect(staffJoin.ok && staffJoin.channels).toContain(CHAT_CHANNELS.internal);

    const live = single.sockets.live;
    const message = (channel: number, messageId: number) =>
      live.toChannel(doctorCase, channel, {
        type: 'chat.message',
        caseId: doctorCase,
        channel,
        messageId,
      });
    message(CHAT_CHANNELS.internal, 1);
    message(CHAT_CHANNELS.public, 2);
    const chat = (received: typeof doctorPeer.received) =>
      received.filter((r) => r.name === 'chat.message').map((r) => r.event.messageId);
    // Delivered in order: once the public message arrived, the internal one would have.
    await until(() => chat(doctorPeer.received).length === 1);
    await until(() => chat(staffPeer.received).length === 2);
    expect(chat(doctorPeer.received)).toEqual([2]);
    expect(chat(staffPeer.received)).toEqual([1, 2]);
  });

  it('stops the events of a case left', async () => {
    const peer = await connected(single, doctor);
    const otherCase = await openCase(single, doctor);
    expect(await joinCase(peer.socket, doctorCase)).toMatchObject({ ok: true });
    expect(await joinCase(peer.socket, otherCase)).toMatchObject({ ok: true });
    peer.socket.emit('case:leave', { caseId: doctorCase });
    await changeCase(single, doctor, doctorCase);
    await changeCase(single, doctor, otherCase);
    await until(() => changesOf(peer.received, otherCase).length === 1);
    expect(changesOf(peer.received, doctorCase)).toEqual([]);
  });

  it(`caps the cases one socket is in at ${MAX_CASES_PER_SOCKET}`, async () => {
    const busyDoctor = await createUser(single.test.app, ['doctor']);
    const caseIds: number[] = [];
    for (let i = 0; i <= MAX_CASES_PER_SOCKET; i++)
      caseIds.push(await openCase(single, busyDoctor));
    const peer = await connected(single, busyDoctor);
    for (const caseId of caseIds.slice(0, MAX_CASES_PER_SOCKET)) {
      expect(await joinCase(peer.socket, caseId)).toMatchObject({ ok: true });
    }
    const extra = caseIds[MAX_CASES_PER_SOCKET]!;
    expect(await joinCase(peer.socket, extra)).toEqual({ ok: false, code: 'TOO_MANY_CASES' });
    // Joining a case already joined again is not one more.
    expect(await joinCase(peer.socket, caseIds[0])).toMatchObject({ ok: true });
    peer.socket.emit('case:leave', { caseId: caseIds[0] });
    expect(await joinCase(peer.socket, extra)).toMatchObject({ ok: true });
  });

  it('sends notifications to the notified users only, in their own rooms', async () => {
    const notified = await connected(single, doctor);
    const bystander = await connected(single, otherDoctor);
    single.test.app.caseEvents.publish({
      caseId: doctorCase,
      action: 'chatMessage',
      actorId: otherDoctor.profile.id,
      fromStatus: null,
      toStatus: null,
      detail: { notified: [doctor.profile.id], notificationType: CHAT_CHANNELS.public },
      at: new Date(),
    });
    single.test.app.caseEvents.publish({
      caseId: doctorCase,
      action: 'chatMessage',
      actorId: doctor.profile.id,
      fromStatus: null,
      toStatus: null,
      detail: { notified: [otherDoctor.profile.id], notificationType: 7 },
      at: new Date(),
    });
    const notes = (received: typeof notified.received) =>
      received.filter((r) => r.name === 'notification.created').map((r) => r.event);
    await until(
      () => notes(notified.received).length === 1 && notes(bystander.received).length === 1,
    );
    expect(notes(notified.received)).toEqual([
      { type: 'notification.created', caseId: doctorCase, eventType: CHAT_CHANNELS.public },
    ]);
    expect(notes(bystander.received)).toEqual([
      { type: 'notification.created', caseId: doctorCase, eventType: 7 },
    ]);
    // Neither joined the case: no case event either.
    expect(changesOf(notified.received, doctorCase)).toEqual([]);
  });
});

/** Through the API: a supervisor adds the user to the case. */
async function addMember(instance: Instance, caseId: number, user: Session): Promise<void> {
  const response = await caseApi(instance.test.app)(supervisor, 'POST', `${caseId}/users`, {
    userId: user.profile.id,
    triggerNotification: true,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Through the API: a supervisor removes the user from the case. */
async function removeMember(instance: Instance, caseId: number, user: Session): Promise<void> {
  const response = await caseApi(instance.test.app)(
    supervisor,
    'DELETE',
    `${caseId}/users/${user.profile.id}`,
  );
  expect(response.statusCode, response.body).toBe(200);
}

/** Through the API: an admin sets the user's roles. */
async function setRoles(instance: Instance, user: Session, roles: string[]): Promise<void> {
  const response = await instance.test.app.inject({
    method: 'POST',
    url: `/api/v1/users/${user.profile.id}/set`,
    headers: bearer(await login(instance.test.app, 'admin')),
    payload: { roles },
  });
  expect(response.statusCode, response.body).toBe(200);
}

type Peer = Awaited<ReturnType<typeof connected>>;

let barrier = 0;

/**
 * After the user's access to the case was removed: the owner changes the case and `emitter` sends
 * a message to each of its chat rooms. The owner (still there) hears them; then an event to the
 * removed user's own room reaches them, and by then (one connection delivers in order) nothing of
 * the case sent after the removal has — beyond the removal's own `userRemoved` change.
 */
async function expectNothingMore(
  emitter: Instance,
  caseId: number,
  removed: { peer: Peer; user: Session },
  ownerPeer: Peer,
): Promise<void> {
  const from = removed.peer.received.length;
  const ownerFrom = ownerPeer.received.length;
  await changeCase(emitter, doctor, caseId);
  for (const channel of CHAT_CHANNEL_IDS) {
    emitter.sockets.live.toChannel(caseId, channel, {
      type: 'chat.message',
      caseId,
      channel,
      messageId: channel,
    });
  }
  const ownerHeard = () => ownerPeer.received.slice(ownerFrom);
  await until(
    () => ownerHeard().some((r) => r.name === 'chat.message' && r.event.channel === 3),
    2000,
    'the owner hears the message',
  );
  expect(changesOf(ownerHeard(), caseId).length).toBeGreaterThan(0);
  barrier += 1;
  const eventType = 10_000 + barrier;
  emitter.sockets.live.toUser(removed.user.profile.id, {
    type: 'notification.created',
    caseId: null,
    eventType,
  });
  await until(
    () => removed.peer.received.some((r) => r.event.eventType === eventType),
    2000,
    'the removed user hears their own room',
  );
  const heard = removed.peer.received
    .slice(from)
    .filter((r) => r.event.caseId === caseId && r.event.action !== 'userRemoved');
  expect(heard).toEqual([]);
}

describe('access removed: the sockets leave the rooms at once', () => {
  it('a member removed from the case hears nothing more of it', async () => {
    const member = await createUser(single.test.app, ['doctor']);
    const caseId = await openCase(single, doctor);
    await addMember(single, caseId, member);
    const ownerPeer = await connected(single, doctor);
    const memberPeer = await connected(single, member);
    expect(await joinCase(ownerPeer.socket, caseId)).toMatchObject({ ok: true });
    expect(await joinCase(memberPeer.socket, caseId)).toMatchObject({ ok: true });
    // Joined: the member hears a change of the case.
    await changeCase(single, doctor, caseId);
    await until(() => changesOf(memberPeer.received, caseId).length === 1);

    await removeMember(single, caseId, member);
    await expectNothingMore(single, caseId, { peer: memberPeer, user: member }, ownerPeer);
  });

  it('a planner, partner or printer added to the case hears nothing more once the role is gone', async () => {
    for (const role of ['planner', 'partner', 'printer']) {
      const member = await createUser(single.test.app, [role]);
      const caseId = await openCase(single, doctor);
      await addMember(single, caseId, member);
      const ownerPeer = await connected(single, doctor);
      const memberPeer = await connected(single, member);
      expect(await joinCase(ownerPeer.socket, caseId)).toMatchObject({ ok: true });
      expect(await joinCase(memberPeer.socket, caseId), role).toMatchObject({ ok: true });

      await setRoles(single, member, ['doctor']);
      await expectNothingMore(single, caseId, { peer: memberPeer, user: member }, ownerPeer);
    }
  });

  it("a planner who keeps the case but loses the planner role leaves only the internal channel's room", async () => {
    // Added as a doctor (a colleague): the membership stays, the planner's channels go.
    const member = await createUser(single.test.app, ['doctor', 'planner']);
    const caseId = await openCase(single, doctor);
    await addMember(single, caseId, member);
    const peer = await connected(single, member);
    const joined = await joinCase(peer.socket, caseId);
    expect(joined.ok && joined.channels).toContain(CHAT_CHANNELS.internal);

    await setRoles(single, member, ['doctor']);
    const live = single.sockets.live;
    live.toChannel(caseId, CHAT_CHANNELS.internal, {
      type: 'chat.message',
      caseId,
      channel: CHAT_CHANNELS.internal,
      messageId: 1,
    });
    live.toChannel(caseId, CHAT_CHANNELS.public, {
      type: 'chat.message',
      caseId,
      channel: CHAT_CHANNELS.public,
      messageId: 2,
    });
    await until(() => peer.received.some((r) => r.name === 'chat.message'));
    expect(
      peer.received.filter((r) => r.name === 'chat.message').map((r) => r.event.messageId),
    ).toEqual([2]);
  });

  it.each([
    [
      'a deleted account',
      (id: number) => ({ method: 'DELETE' as const, url: `/api/v1/users/delete/${id}` }),
    ],
    [
      'an account whose password an admin set (its sessions end)',
      (id: number) => ({
        method: 'POST' as const,
        url: `/api/v1/users/setPassword/${id}`,
        payload: { password: 'Another-pass1' },
      }),
    ],
  ])('%s is disconnected at once', async (_label, request) => {
    const member = await createUser(single.test.app, ['doctor']);
    const peer = await connected(single, member);
    const reasons: string[] = [];
    peer.socket.on('disconnect', (reason) => reasons.push(reason));
    const response = await single.test.app.inject({
      ...request(member.profile.id),
      headers: bearer(await login(single.test.app, 'admin')),
    });
    expect(response.statusCode, response.body).toBe(200);
    await until(() => reasons.length > 0, 2000, 'disconnect');
    expect(reasons).toEqual(['io server disconnect']);
  });
});

describe('two instances on one database and Redis', () => {
  let instanceA: Instance;
  let instanceB: Instance;
  beforeAll(async () => {
    instanceA = await startInstance(
      { REDIS_URL },
      { databaseUrl: single.test.config.databaseUrl! },
    );
    instanceB = await startInstance(
      { REDIS_URL },
      { databaseUrl: single.test.config.databaseUrl! },
    );
  });

  it('a change through instance A reaches a client of instance B within a second, and only it', async () => {
    const owner = await connected(instanceB, doctor);
    const stranger = await connected(instanceB, otherDoctor);
    const strangerCase = await openCase(instanceA, otherDoctor);
    expect(await joinCase(owner.socket, doctorCase)).toMatchObject({ ok: true });
    expect(await joinCase(stranger.socket, doctorCase)).toEqual({ ok: false, code: 'NOT_FOUND' });
    expect(await joinCase(stranger.socket, strangerCase)).toMatchObject({ ok: true });

    const started = Date.now();
    await changeCase(instanceA, doctor, doctorCase);
    await until(() => changesOf(owner.received, doctorCase).length === 1);
    expect(Date.now() - started).toBeLessThan(WITHIN_MS + 500);

    // A chat message emitted on A reaches B's room members.
    instanceA.sockets.live.toChannel(doctorCase, CHAT_CHANNELS.public, {
      type: 'chat.message',
      caseId: doctorCase,
      channel: CHAT_CHANNELS.public,
      messageId: 42,
    });
    await until(() => owner.received.some((r) => r.name === 'chat.message'));

    // The stranger's own case changes next: by then the doctor's events would have reached them.
    await changeCase(instanceA, otherDoctor, strangerCase);
    await until(() => changesOf(stranger.received, strangerCase).length === 1);
    expect(stranger.received.filter((r) => r.event.caseId === doctorCase)).toEqual([]);
    expect(changesOf(owner.received, strangerCase)).toEqual([]);
  });

  it('removed from the case through instance A, a client of instance B leaves its rooms at once', async () => {
    const member = await createUser(single.test.app, ['doctor']);
    const caseId = await openCase(instanceA, doctor);
    await addMember(instanceA, caseId, member);
    const ownerPeer = await connected(instanceA, doctor);
    const memberPeer = await connected(instanceB, member);
    expect(await joinCase(ownerPeer.socket, caseId)).toMatchObject({ ok: true });
    expect(await joinCase(memberPeer.socket, caseId)).toMatchObject({ ok: true });

    await removeMember(instanceA, caseId, member);
    await expectNothingMore(instanceA, caseId, { peer: memberPeer, user: member }, ownerPeer);
  });

  it('a role removed through instance A takes a partner of instance B out of the case rooms', async () => {
    const partner = await createUser(single.test.app, ['partner']);
    const caseId = await openCase(instanceA, doctor);
    await addMember(instanceA, caseId, partner);
    const ownerPeer = await connected(instanceB, doctor);
    const partnerPeer = await connected(instanceB, partner);
    expect(await joinCase(ownerPeer.socket, caseId)).toMatchObject({ ok: true });
    expect(await joinCase(partnerPeer.socket, caseId)).toMatchObject({ ok: true });

    await setRoles(instanceA, partner, ['doctor']);
    await expectNothingMore(instanceA, caseId, { peer: partnerPeer, user: partner }, ownerPeer);
  });
});
