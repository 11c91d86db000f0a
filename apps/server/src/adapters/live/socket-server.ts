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
 * Live updates (issue "Conversation" §3): Socket.IO on the API's own port under
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
  const live = liveUpdatesThrough(emit);
  const detach = isAttachable(ctx.live) ? ctx.live.attach(emit) : () => {};

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
    close() {
      closing ??= (async () => {
        stopListening();
        detach();
        // Not io.close(): that also closes the HTTP server, which is Fastify's to close.
        io.local.disconnectSockets(true);
        io.engine.close();
        await io.of('/').adapter.close();
        if (redis) await Promise.allSettled([redis.pub.quit(), redis.sub.quit()]);
      })();
      return closing;
    },
  };
  attached.set(app.server, server);
  return server;
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

  /** Rooms per joined case. */
  const joined = new Map<number, string[]>();
  /** The latest request per case: a join answered after a later leave (or join) is dropped. */
  const tickets = new Map<number, number>();
  let pendingJoins = 0;
  const nextTicket = (caseId: number) => {
    const ticket = (tickets.get(caseId) ?? 0) + 1;
    tickets.set(caseId, ticket);
    return ticket;
  };
  const leaveRooms = (caseId: number) => {
    for (const room of joined.get(caseId) ?? []) void socket.leave(room);
    joined.delete(caseId);
  };
  const isFull = (caseId: number) => !joined.has(caseId) && joined.size >= MAX_CASES_PER_SOCKET;

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
      const access = await loadCaseAccess(ctx.db, session, caseId);
      const channels = access ? await deps.allowedChannels(ctx.db, session, caseId) : null;
      if (tickets.get(caseId) !== ticket || !socket.connected) {
        return { ok: false, code: 'CANCELLED' };
      }
      // A second join re-reads the channels (a role may have changed): old rooms go first.
      leaveRooms(caseId);
      if (!access || !channels) return { ok: false, code: 'NOT_FOUND' };
      if (isFull(caseId)) return { ok: false, code: 'TOO_MANY_CASES' };
      const rooms = [roomOfCase(caseId), ...channels.map((ch) => roomOfChannel(caseId, ch))];
      await socket.join(rooms);
      joined.set(caseId, rooms);
      return { ok: true, channels };
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
    client.on('error', (error: unknown) => log.warn({ err: error }, 'live updates: Redis error'));
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
