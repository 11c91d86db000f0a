import { LIVE_SOCKET_PATH, type LiveEvent } from '@dentflow/domain';
import { getAccessToken, isSessionRefused, refreshSession } from '../api-client';
import { deferredSocket } from './deferred-socket';

/**
 * Live updates from the server: one Socket.IO connection per signed-in
 * session, authenticated by the access token. Events say what changed (ids only); the app
 * refetches through the API. The server closes the connection when the token expires and refuses
 * a stale token with NOT_AUTHORIZED: the client then refreshes the session and connects again.
 */

export { LIVE_SOCKET_PATH, type LiveEvent };

export const LIVE_EVENT_TYPES = [
  'case.changed',
  'chat.message',
  'chat.deleted',
  'notification.created',
] as const satisfies readonly LiveEvent['type'][];

/** After a reconnection: events may have been missed while offline, so everything is read again. */
export interface LiveResync {
  type: 'resync';
}

/** idle: not connected (nobody needs it); connecting: first attempt; online; offline: lost. */
export type LiveStatus = 'idle' | 'connecting' | 'online' | 'offline';

type Listener = (...args: never[]) => void;

/** The part of a socket.io-client `Socket` this client uses (tests pass a fake). */
export interface LiveSocket {
  readonly connected: boolean;
  connect(): unknown;
  disconnect(): unknown;
  on(event: string, listener: Listener): unknown;
  off(event: string, listener?: Listener): unknown;
  emit(event: string, ...args: unknown[]): unknown;
}

/** Opens a socket that is not connected yet; `auth` is asked for the token at every attempt. */
export type OpenLiveSocket = (
  auth: (cb: (data: { token: string | null }) => void) => void,
) => LiveSocket;

export interface LiveClientOptions {
  openSocket?: OpenLiveSocket;
  getToken?: () => string | null;
  /** Renews the access token (the api-client's refresh: one at a time, across tabs). */
  refresh?: () => Promise<unknown>;
  /** Longest wait between refused attempts (the server keeps refusing a refreshed token). */
  maxRetryDelayMs?: number;
}

export interface LiveClient {
  /** Connects while at least one holder needs it; returns the release. */
  retain(): () => void;
  /** Every event from the server, and a resync after each reconnection; returns the unsubscribe. */
  subscribe(listener: (event: LiveEvent | LiveResync) => void): () => void;
  getStatus(): LiveStatus;
  subscribeStatus(listener: () => void): () => void;
  /** Keeps the case's rooms joined (again after every reconnection) until released. */
  joinCase(caseId: number): () => void;
}

/**
 * WebSocket only: with several server instances behind a load balancer, HTTP long-polling would
 * need sticky sessions; a WebSocket stays on the instance it reached. socket.io-client is
 * downloaded when the first connection opens, after the page has rendered.
 */
const openDefaultSocket: OpenLiveSocket = (auth) =>
  deferredSocket(
    import('socket.io-client').then(
      ({ io }) =>
        io({
          path: LIVE_SOCKET_PATH,
          transports: ['websocket'],
          autoConnect: false,
          reconnection: true,
          auth,
        }) as unknown as LiveSocket,
    ),
  );

export function createLiveClient(options: LiveClientOptions = {}): LiveClient {
  const openSocket = options.openSocket ?? openDefaultSocket;
  const getToken = options.getToken ?? getAccessToken;
  const refresh = options.refresh ?? refreshSession;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;

  const listeners = new Set<(event: LiveEvent | LiveResync) => void>();
  const statusListeners = new Set<() => void>();
  /** Holders per joined case. */
  const cases = new Map<number, number>();
  let socket: LiveSocket | null = null;
  let holders = 0;
  let status: LiveStatus = 'idle';
  let wasOnline = false;
  /** The token the last attempt sent. */
  let tokenSent: string | null = null;
  /** Refusals since the last successful connection. */
  let refusals = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const setStatus = (next: LiveStatus) => {
    if (status === next) return;
    status = next;
    for (const listener of statusListeners) listener();
  };
  const publish = (event: LiveEvent | LiveResync) => {
    for (const listener of listeners) listener(event);
  };

  const onConnect = () => {
    refusals = 0;
    const reconnected = wasOnline;
    wasOnline = true;
    setStatus('online');
    for (const caseId of cases.keys()) socket?.emit('case:join', { caseId });
    if (reconnected) publish({ type: 'resync' });
  };

  const onDisconnect = (reason: string) => {
    if (reason === 'io client disconnect') return;
    setStatus('offline');
    // The server closed it (token expiry): socket.io does not retry that by itself.
    if (reason === 'io server disconnect') socket?.connect();
  };

  /** Transport errors are retried by socket.io itself; a refusal is ours to handle. */
  const onConnectError = (error: Error) => {
    setStatus('offline');
    if (error.message !== 'NOT_AUTHORIZED') return;
    const current = socket;
    refusals += 1;
    // A token refreshed meanwhile (by an API call) is tried at once; else refresh first.
    const renewed = getToken() !== tokenSent;
    const delay = refusals === 1 ? 0 : Math.min(maxRetryDelayMs, 1000 * 2 ** (refusals - 2));
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      if (socket !== current) return;
      if (renewed) {
        current?.connect();
        return;
      }
      refresh().then(
        () => {
          if (socket === current) current?.connect();
        },
        (refreshError: unknown) => {
          // A refused session ends (the api-client sends the user to /login); network trouble
          // is tried again later.
          if (!isSessionRefused(refreshError) && socket === current) current?.connect();
        },
      );
    }, delay);
  };

  const onServerEvent = (type: LiveEvent['type']) => (event: LiveEvent) => {
    if (event && typeof event === 'object' && event.type === type) publish(event);
  };
  const eventHandlers = LIVE_EVENT_TYPES.map((type) => [type, onServerEvent(type)] as const);

  function open() {
    socket = openSocket((cb) => {
      tokenSent = getToken();
      cb({ token: tokenSent });
    });
    socket.on('connect', onConnect);
    socket.on('disconnect', onDisconnect as Listener);
    socket.on('connect_error', onConnectError as Listener);
    for (const [type, handler] of eventHandlers) socket.on(type, handler as Listener);
    setStatus('connecting');
    socket.connect();
  }

  function close() {
    clearTimeout(retryTimer);
    const closing = socket;
    socket = null;
    wasOnline = false;
    refusals = 0;
    if (closing) {
      closing.off('connect', onConnect);
      closing.off('disconnect', onDisconnect as Listener);
      closing.off('connect_error', onConnectError as Listener);
      for (const [type, handler] of eventHandlers) closing.off(type, handler as Listener);
      closing.disconnect();
    }
    setStatus('idle');
  }

  return {
    retain() {
      holders += 1;
      if (holders === 1) open();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders -= 1;
        if (holders === 0) close();
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getStatus: () => status,
    subscribeStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    joinCase(caseId) {
      const count = cases.get(caseId) ?? 0;
      cases.set(caseId, count + 1);
      if (count === 0 && socket?.connected) socket.emit('case:join', { caseId });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (cases.get(caseId) ?? 1) - 1;
        if (left > 0) {
          cases.set(caseId, left);
          return;
        }
        cases.delete(caseId);
        if (socket?.connected) socket.emit('case:leave', { caseId });
      };
    },
  };
}

/** This tab's live client (the main layout keeps it connected). */
export const liveClient = createLiveClient();
