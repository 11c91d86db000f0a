import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import {
  createLiveClient,
  type LiveClient,
  type LiveSocket,
  type OpenLiveSocket,
} from './live-client';
import { LiveStatus } from './live-status';
import { useCaseRoom, useLiveUpdates } from './use-live-updates';

type Listener = (...args: never[]) => void;

/** Plays the Socket.IO server: `serve*` methods fire what the real socket would. */
class FakeSocket implements LiveSocket {
  connected = false;
  connects = 0;
  disconnects = 0;
  readonly sent: { event: string; payload: unknown }[] = [];
  readonly tokens: (string | null)[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly auth: Parameters<OpenLiveSocket>[0]) {}

  connect() {
    this.connects += 1;
    this.auth(({ token }) => this.tokens.push(token));
  }
  disconnect() {
    this.disconnects += 1;
    this.connected = false;
  }
  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
  }
  off(event: string, listener?: Listener) {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push({ event, payload: args[0] });
  }

  private fire(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) {
      (listener as (...values: unknown[]) => void)(...args);
    }
  }
  serveConnect() {
    this.connected = true;
    act(() => this.fire('connect'));
  }
  serveDisconnect(reason: string) {
    this.connected = false;
    act(() => this.fire('disconnect', reason));
  }
  serveRefusal(message = 'NOT_AUTHORIZED') {
    act(() => this.fire('connect_error', new Error(message)));
  }
  serve(type: string, event: Record<string, unknown>) {
    act(() => this.fire(type, { type, ...event }));
  }
  get listenerCount() {
    return [...this.listeners.values()].reduce((n, set) => n + set.size, 0);
  }
}

function fakeLive(options: { refresh?: () => Promise<unknown>; token?: () => string | null } = {}) {
  const sockets: FakeSocket[] = [];
  const client = createLiveClient({
    openSocket: (auth) => {
      const socket = new FakeSocket(auth);
      sockets.push(socket);
      return socket;
    },
    getToken: options.token ?? (() => 'access-1'),
    refresh: options.refresh ?? (() => Promise.resolve()),
    maxRetryDelayMs: 0,
  });
  return { client, sockets, socket: () => sockets.at(-1)! };
}

function Probe({ client, caseId }: { client: LiveClient; caseId: number }) {
  useLiveUpdates(client);
  useCaseRoom(caseId, client);
  return null;
}

/** Keys of the queries the app keeps (features' keys), each with cached data. */
const KEYS = {
  detail5: ['cases', 'detail', 5],
  detail6: ['cases', 'detail', 6],
  history5: ['cases', 'history', 5],
  list: ['cases', 'list', { filter: 'new', page: 0 }],
  counts: ['cases', 'counts'],
  archive: ['cases', 'archive', 0, {}],
  attachments5: ['attachments', 'case', 5],
  attachments6: ['attachments', 'case', 6],
  transactions5: ['case', 5, 'transactions'],
  transactions6: ['case', 6, 'transactions'],
  chat5: ['case', 5, 'chat', 3],
  chat6: ['case', 6, 'chat', 3],
  last5: ['notifications', 'last5'],
  notificationPage: ['notifications', 'list', 0],
  profile: ['profile'],
} satisfies Record<string, QueryKey>;
type KeyName = keyof typeof KEYS;

function renderProbe(client: LiveClient, caseId = 5) {
  const queryClient = new QueryClient();
  const seed = () => {
    for (const key of Object.values(KEYS)) queryClient.setQueryData(key, { cached: true });
  };
  seed();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <Probe client={client} caseId={caseId} />
    </QueryClientProvider>,
  );
  const invalidated = () =>
    (Object.keys(KEYS) as KeyName[])
      .filter((name) => queryClient.getQueryState(KEYS[name])?.isInvalidated)
      .sort();
  return { ...view, queryClient, seed, invalidated };
}

describe('useLiveUpdates: which queries each event refreshes', () => {
  it('case.changed: that case (not its chat), the lists and counts', () => {
    const live = fakeLive();
    const { invalidated } = renderProbe(live.client);
    live.socket().serveConnect();
    live.socket().serve('case.changed', { caseId: 5, action: 'updated' });
    expect(invalidated()).toEqual(
      (
        [
          'archive',
          'attachments5',
          'counts',
          'detail5',
          'history5',
          'list',
          'transactions5',
        ] as const
      ).toSorted(),
    );
  });

  it('chat.message and chat.deleted: that case chat only', () => {
    const live = fakeLive();
    const { invalidated, seed } = renderProbe(live.client);
    live.socket().serveConnect();
    live.socket().serve('chat.message', { caseId: 5, channel: 3, messageId: 9 });
    expect(invalidated()).toEqual(['chat5']);
    seed();
    live.socket().serve('chat.deleted', { caseId: 6, channel: 3, messageId: 9 });
    expect(invalidated()).toEqual(['chat6']);
  });

  it('notification.created: the notifications, and the case lists for a case notification', () => {
    const live = fakeLive();
    const { invalidated, seed } = renderProbe(live.client);
    live.socket().serveConnect();
    live.socket().serve('notification.created', { caseId: 6, eventType: 3 });
    expect(invalidated()).toEqual(['counts', 'last5', 'list', 'notificationPage']);
    seed();
    live.socket().serve('notification.created', { caseId: null, eventType: 1 });
    expect(invalidated()).toEqual(['last5', 'notificationPage']);
  });

  it('ignores unknown or malformed events', () => {
    const live = fakeLive();
    const { invalidated } = renderProbe(live.client);
    live.socket().serveConnect();
    live.socket().serve('something.else', { caseId: 5 });
    act(() => {
      // An event whose payload names another type is not taken for the one it came as.
      (live.socket() as unknown as { fire: (e: string, p: unknown) => void }).fire('chat.message', {
        type: 'case.changed',
        caseId: 5,
      });
    });
    expect(invalidated()).toEqual([]);
  });

  it('after a reconnection re-joins the open case and reads everything again', () => {
    const live = fakeLive();
    const { invalidated } = renderProbe(live.client, 5);
    const socket = live.socket();
    expect(socket.connects).toBe(1);
    socket.serveConnect();
    expect(socket.sent).toEqual([{ event: 'case:join', payload: { caseId: 5 } }]);
    expect(invalidated()).toEqual([]);

    socket.serveDisconnect('transport close');
    socket.serveConnect();
    expect(socket.sent).toEqual([
      { event: 'case:join', payload: { caseId: 5 } },
      { event: 'case:join', payload: { caseId: 5 } },
    ]);
    expect(invalidated()).toEqual(
      (Object.keys(KEYS) as KeyName[]).filter((name) => name !== 'profile').sort(),
    );
  });
});

describe('the live connection', () => {
  it('joins a case when its page opens, leaves it when it closes, disconnects when unmounted', () => {
    const live = fakeLive();
    const { rerender, unmount, queryClient } = renderProbe(live.client, 5);
    const socket = live.socket();
    socket.serveConnect();
    rerender(
      <QueryClientProvider client={queryClient}>
        <Probe client={live.client} caseId={0} />
      </QueryClientProvider>,
    );
    expect(socket.sent).toEqual([
      { event: 'case:join', payload: { caseId: 5 } },
      { event: 'case:leave', payload: { caseId: 5 } },
    ]);
    expect(live.sockets).toHaveLength(1);
    unmount();
    expect(socket.disconnects).toBe(1);
    expect(socket.listenerCount).toBe(0);
    expect(live.client.getStatus()).toBe('idle');
  });

  it('on NOT_AUTHORIZED refreshes the session and connects again with the new token', async () => {
    let token = 'expired';
    const refresh = vi.fn(async () => {
      token = 'fresh';
    });
    const live = fakeLive({ refresh, token: () => token });
    renderProbe(live.client);
    const socket = live.socket();
    expect(socket.tokens).toEqual(['expired']);
    socket.serveRefusal();
    await waitFor(() => expect(socket.connects).toBe(2));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(socket.tokens).toEqual(['expired', 'fresh']);
    socket.serveConnect();
    expect(live.client.getStatus()).toBe('online');
  });

  it('does not refresh when another request already renewed the token', async () => {
    let token = 'expired';
    const refresh = vi.fn(async () => {});
    const live = fakeLive({ refresh, token: () => token });
    renderProbe(live.client);
    token = 'renewed-by-an-api-call';
    live.socket().serveRefusal();
    await waitFor(() => expect(live.socket().connects).toBe(2));
    expect(refresh).not.toHaveBeenCalled();
    expect(live.socket().tokens).toEqual(['expired', 'renewed-by-an-api-call']);
  });

  it('leaves transport errors to socket.io and reconnects after the server closed it', () => {
    const refresh = vi.fn(async () => {});
    const live = fakeLive({ refresh });
    renderProbe(live.client);
    const socket = live.socket();
    socket.serveRefusal('websocket error');
    expect(refresh).not.toHaveBeenCalled();
    expect(socket.connects).toBe(1);
    socket.serveConnect();
    // The token expired: the server disconnects and socket.io would not come back by itself.
    socket.serveDisconnect('io server disconnect');
    expect(socket.connects).toBe(2);
  });
});

describe('LiveStatus', () => {
  it('shows "Offline — reconnecting…" while the connection is lost, and hides it once back', async () => {
    const live = fakeLive();
    renderWithApp(<LiveStatus client={live.client} graceMs={0} />);
    const socket = live.socket();
    socket.serveConnect();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    socket.serveDisconnect('transport close');
    expect(await screen.findByRole('status')).toHaveTextContent('Offline — reconnecting…');
    socket.serveConnect();
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
  });
});
