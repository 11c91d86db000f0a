import { createHash } from 'node:crypto';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import { LIVE_SOCKET_PATH, idSchema } from '@dentflow/domain';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { AuthContext } from '../../http/permissions';
import { loadCaseAccess } from '../../modules/cases/case-access.service';
import type { AccessTokenSubject } from '../../security/tokens';
import {
  caseOfRoom,
  isAttachable,
  liveUpdatesThrough,
  roomOfCase,
  roomOfChannel,
  roomOfUser,
  type LiveEmit,
  type LiveEvent,
  type LiveUpdates,
} from './live-updates';

/**
 * Live updates: Socket.IO on the API's own port under
 * `/api/socket.io`. A connection is authenticated by the access token exactly like an HTTP
 * request (`registerPermissions`: valid token, open session, verified user) and is closed when
 * that token expires — the client then connects again with a fresh one. Every socket is in its
 * user's room; case and chat rooms are joined on request, after the API's own checks. With
 * `REDIS_URL` the Redis adapter carries every emit to the other instances.
 */

export const SOCKET_PATH = LIVE_SOCKET_PATH;
/** Case rooms one socket may be in at once (a tab shows one case; a few are left joining). */
export const MAX_CASES_PER_SOCKET = 50;
/** Joins one socket may have in flight (each reads the database). */
const MAX_PENDING_JOINS = 5;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long start-up waits for Redis before going on (emits reach other instances once it answers). */
const REDIS_READY_TIMEOUT_MS = 5000;

export interface SocketServerDeps {
  /** The session behind an access token's subject, or null (auth.service `loadSession`). */
  loadSession(subject: AccessTokenSubject): Promise<AuthContext | null>;
  /** The chat channels the caller may use on the case, or null when the case is hidden. */
  allowedChannels(
    db: Db,
    caller: Pick<AuthContext, 'userId' | 'roles'>,
    caseId: number,
  ): Promise<number[] | null>;
}

export interface SocketServer {
  /** Emits straight into this server's rooms (what `ctx.live` is attached to). */
  live: LiveUpdates;
  /** Disconnects every local socket and stops listening (idempotent; call before the app closes). */
  close(): Promise<void>;
  /** Sockets connected to this instance now. */
  connections(): number;
}

export type CaseJoinAnswer =
  | { ok: true; channels: number[] }
  | {
      ok: false;
      code:
        'BAD_REQUEST' | 'NOT_FOUND' | 'NOT_AUTHORIZED' | 'TOO_MANY_CASES' | 'CANCELLED' | 'ERROR';
    };

interface ClientToServerEvents {
  'case:join': (payload: unknown, ack?: (answer: CaseJoinAnswer) => void) => void;
  'case:leave': (payload: unknown) => void;
}
type ServerToClientEvents = Record<LiveEvent['type'], (event: LiveEvent) => void>;
interface SocketData {
  subject: AccessTokenSubject;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
}
type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, SocketData>;

const caseRoomRequestSchema = z.object({ caseId: idSchema });

type SocketServerContext = Pick<
  AppContext,
  'config' | 'db' | 'accessTokens' | 'caseEvents' | 'live' | 'log'
>;

/** One socket server per HTTP server: a second call answers the first one's handle. */
const attached = new WeakMap<object, SocketServer>();

export async function attachSocketServer(
  app: FastifyInstance,
  ctx: SocketServerContext,
  deps: SocketServerDeps,
): Promise<SocketServer> {
  const existing = attached.get(app.server);
  if (existing) return existing;

  const redis = ctx.config.redisUrl ? createRedisPair(ctx.config.redisUrl, ctx.log) : null;
  const io = new Server<ClientToServerEvents, ServerToClientEvents, object, SocketData>(
    app.server,
    {
      path: SOCKET_PATH,
      serveClient: false,
      // Clients only send small requests ({caseId}).
      maxHttpBufferSize: 10_000,
      ...(redis
        ? { adapter: createAdapter(redis.pub, redis.sub, { key: redisKey(ctx.config) }) }
        : {}),
    },
  );
  if (redis) await waitForRedis(redis.sub, ctx.log);

  const emit: LiveEmit = (room, event) => void io.to(room).emit(event.type, event);
  const target = {
    emit,
    recheckAccess: (userId: number, caseId: number | null) =>
      recheckAccess(io, ctx, deps, userId, caseId).catch((error: unknown) => {
        ctx.log.warn({ err: error, userId }, 'live updates: access re-check failed');
      }),
  };
  const live = liveUpdatesThrough(target);
  const detach = isAttachable(ctx.live) ? ctx.live.attach(target) : () => {};

  io.use((socket, next) => {
    authenticate(socket.handshake.auth, ctx, deps).then(
      (data) => {
        if (!data) return next(new Error('NOT_AUTHORIZED'));
        socket.data = data;
        next();
      },
      (error: unknown) => {
        ctx.log.warn({ err: error }, 'live updates: authentication failed');
        next(new Error('NOT_AUTHORIZED'));
      },
    );
  });
  io.on('connection', (socket) => serveSocket(socket, ctx, deps));

  const stopListening = ctx.caseEvents.on((event) => {
    live.toCase(event.caseId, { type: 'case.changed', caseId: event.caseId, action: event.action });
    const notified = event.detail.notified;
    if (!Array.isArray(notified)) return;
    const eventType = Number(event.detail.notificationType ?? 0);
    for (const userId of notified) {
      if (!Number.isSafeInteger(userId)) continue;
      live.toUser(userId as number, {
        type: 'notification.created',
        caseId: event.caseId,
        eventType: Number.isFinite(eventType) ? eventType : 0,
      });
    }
  });

  let closing: Promise<void> | null = null;
  const server: SocketServer = {
    live,
    connections: () => io.engine.clientsCount,
    close() {
      closing ??= (async () => {
        stopListening();
        detach();
        // Not io.close(): that also closes the HTTP server, which is Fastify's to close. Not
        // disconnectSockets(true) either: socket.io-client does not retry an 'io server
        // disconnect' by itself. Closing the transports is a 'transport close', which it retries
        // with its randomized backoff — on a shutdown the browsers reconnect, spread out, to
        // the instances that remain.
        io.engine.close();
        await io.of('/').adapter.close();
        if (redis) {
          // quit() would wait for a Redis that may not come back.
          await Promise.allSettled(
            [redis.pub, redis.sub].map(async (client) =>
              client.status === 'ready' ? client.quit() : client.disconnect(),
            ),
          );
        }
      })();
      return closing;
    },
  };
  attached.set(app.server, server);
  return server;
}

type LiveServer = Server<ClientToServerEvents, ServerToClientEvents, object, SocketData>;

/** How long a re-check waits for the other instances' sockets (Redis adapter). */
const RECHECK_TIMEOUT_MS = 2000;

/**
 * The chat channels and rooms of a case the caller may be in now (the API's own checks), or null
 * when the case is hidden from them.
 */
async function roomsAllowed(
  ctx: SocketServerContext,
  deps: SocketServerDeps,
  caller: Pick<AuthContext, 'userId' | 'roles'>,
  caseId: number,
): Promise<{ channels: number[]; rooms: string[] } | null> {
  const access = await loadCaseAccess(ctx.db, caller, caseId);
  const channels = access ? await deps.allowedChannels(ctx.db, caller, caseId) : null;
  if (!access || !channels) return null;
  const rooms = [roomOfCase(caseId), ...channels.map((channel) => roomOfChannel(caseId, channel))];
  return { channels, rooms };
}

/**
 * `LiveUpdates.recheckAccess`: the user's sockets on every instance (`fetchSockets` goes through
 * the adapter) are checked like a join, with the session and roles as they are now: a closed
 * session is disconnected, and the rooms of `caseId` (null: of every case the socket is in) the
 * API would refuse are left. Remote sockets leave through the adapter too, before any later emit.
 */
async function recheckAccess(
  io: LiveServer,
  ctx: SocketServerContext,
  deps: SocketServerDeps,
  userId: number,
  caseId: number | null,
): Promise<void> {
  const sockets = await io.in(roomOfUser(userId)).timeout(RECHECK_TIMEOUT_MS).fetchSockets();
  /** The allowed rooms per case, read once (every socket here is the same user's). */
  const allowed = new Map<number, Promise<string[]>>();
  const allowedRooms = (caller: AuthContext, id: number) =>
    roomsAllowed(ctx, deps, caller, id).then((found) => found?.rooms ?? []);
  for (const socket of sockets) {
    const session = await deps.loadSession(socket.data.subject);
    if (!session) {
      socket.disconnect(true);
      continue;
    }
    const rooms = [...socket.rooms];
    const caseIds = new Set(
      rooms.map(caseOfRoom).filter((id): id is number => id !== null && (caseId ?? id) === id),
    );
    for (const id of caseIds) {
      if (!allowed.has(id)) allowed.set(id, allowedRooms(session, id));
      const keep = await allowed.get(id)!;
      for (const room of rooms) {
        if (caseOfRoom(room) === id && !keep.includes(room)) socket.leave(room);
      }
    }
  }
}

/** The socket's subject and token expiry when its token and session are valid, else null. */
async function authenticate(
  auth: Record<string, unknown>,
  ctx: SocketServerContext,
  deps: SocketServerDeps,
): Promise<SocketData | null> {
  const token = auth.token;
  if (typeof token !== 'string' || token === '') return null;
  const subject = await ctx.accessTokens.verify(token);
  if (!subject) return null;
  const { exp } = decodeJwt(token); // verified above
  if (typeof exp !== 'number') return null;
  if (!(await deps.loadSession(subject))) return null;
  return { subject, expiresAt: exp * 1000 };
}

function serveSocket(socket: LiveSocket, ctx: SocketServerContext, deps: SocketServerDeps): void {
  const { subject, expiresAt } = socket.data;
  void socket.join(roomOfUser(subject.userId));
  // The token is checked again at its expiry: the client reconnects with a fresh one.
  const expiry = setTimeout(
    () => socket.disconnect(true),
    Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - Date.now())),
  );
  expiry.unref();
  socket.on('disconnect', () => clearTimeout(expiry));

  /**
   * The cases joined are read from the socket's rooms, not kept aside: a re-check
   * (`recheckAccess`, possibly from another instance) removes rooms behind this handler's back.
   */
  const joinedCases = () =>
    new Set([...socket.rooms].map(caseOfRoom).filter((id): id is number => id !== null));
  /** The latest request per case: a join answered after a later leave (or join) is dropped. */
  const tickets = new Map<number, number>();
  let pendingJoins = 0;
  const nextTicket = (caseId: number) => {
    const ticket = (tickets.get(caseId) ?? 0) + 1;
    tickets.set(caseId, ticket);
    return ticket;
  };
  const leaveRooms = (caseId: number) => {
    for (const room of [...socket.rooms]) {
      if (caseOfRoom(room) === caseId) void socket.leave(room);
    }
  };
  const isFull = (caseId: number) => {
    const joined = joinedCases();
    return !joined.has(caseId) && joined.size >= MAX_CASES_PER_SOCKET;
  };

  async function joinCase(payload: unknown): Promise<CaseJoinAnswer> {
    const parsed = caseRoomRequestSchema.safeParse(payload);
    if (!parsed.success) return { ok: false, code: 'BAD_REQUEST' };
    const { caseId } = parsed.data;
    if (isFull(caseId) || pendingJoins >= MAX_PENDING_JOINS) {
      return { ok: false, code: 'TOO_MANY_CASES' };
    }
    const ticket = nextTicket(caseId);
    pendingJoins += 1;
    try {
      // The session again: a closed session or a deleted user joins nothing more.
      const session = await deps.loadSession(subject);
      if (!session) {
        socket.disconnect(true);
        return { ok: false, code: 'NOT_AUTHORIZED' };
      }
      const allowed = await roomsAllowed(ctx, deps, session, caseId);
      if (tickets.get(caseId) !== ticket || !socket.connected) {
        return { ok: false, code: 'CANCELLED' };
      }
      // A second join re-reads the channels (a role may have changed): old rooms go first.
      leaveRooms(caseId);
      if (!allowed) return { ok: false, code: 'NOT_FOUND' };
      if (isFull(caseId)) return { ok: false, code: 'TOO_MANY_CASES' };
      await socket.join(allowed.rooms);
      return { ok: true, channels: allowed.channels };
    } finally {
      pendingJoins -= 1;
    }
  }

  socket.on('case:join', (payload, ack) => {
    joinCase(payload).then(
      (answer) => (typeof ack === 'function' ? ack(answer) : undefined),
      (error: unknown) => {
        ctx.log.error({ err: error, userId: subject.userId }, 'live updates: case join failed');
        if (typeof ack === 'function') ack({ ok: false, code: 'ERROR' });
      },
    );
  });
  socket.on('case:leave', (payload) => {
    const parsed = caseRoomRequestSchema.safeParse(payload);
    if (!parsed.success) return;
    nextTicket(parsed.data.caseId); // cancels a join still in flight
    leaveRooms(parsed.data.caseId);
  });
}

function createRedisPair(url: string, log: FastifyBaseLogger) {
  const pub = new Redis(url, { connectTimeout: 2000 });
  const sub = pub.duplicate();
  for (const client of [pub, sub]) {
    // Once per outage (the client retries every few seconds): live events reach only this
    // instance's sockets meanwhile; the API keeps serving, the adapter resubscribes on return.
    let down = false;
    client.on('error', (error: unknown) => {
      if (down) return;
      down = true;
      log.warn({ err: error }, 'live updates: Redis error; emits stay on this instance');
    });
    client.on('ready', () => {
      if (!down) return;
      down = false;
      log.info('live updates: Redis is back');
    });
  }
  return { pub, sub };
}

/**
 * The adapter's channel prefix. Instances of one deployment share their database, so its name
 * is part of the key: deployments (and test runs) sharing one Redis do not hear each other.
 * Hashed, because the adapter subscribes with a glob pattern.
 */
function redisKey(config: Pick<Config, 'databaseUrl'>): string {
  const database = config.databaseUrl
    ? decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1))
    : 'embedded';
  return `dentflow-live-${createHash('sha256').update(database).digest('hex').slice(0, 12)}`;
}

/**
 * Waits until the subscriber answers a PING, which comes after the adapter's subscriptions (one
 * connection runs commands in order), so emits from other instances reach this one from now on.
 * Redis down at start-up does not stop the server: the client keeps reconnecting.
 */
async function waitForRedis(sub: Redis, log: FastifyBaseLogger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), REDIS_READY_TIMEOUT_MS);
  });
  const ready = await Promise.race([
    sub.ping().then(
      () => true,
      () => false,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  if (!ready)
    log.warn('live updates: Redis not reachable yet; other instances will not hear emits');
}
