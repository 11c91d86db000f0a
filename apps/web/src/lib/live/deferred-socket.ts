import type { LiveSocket } from './live-client';

type Listener = (...args: never[]) => void;
type Operation = (socket: LiveSocket) => void;

/**
 * A socket whose library is still downloading: calls made meanwhile are replayed, in order, on the
 * real socket once it is there. This keeps socket.io-client out of the routes' initial JavaScript.
 * If the download fails, the `connect_error` listeners hear it (the client shows "offline").
 */
export function deferredSocket(load: Promise<LiveSocket>): LiveSocket {
  let socket: LiveSocket | null = null;
  let pending: Operation[] | null = [];
  const errorListeners = new Set<Listener>();

  const run = (operation: Operation) => {
    if (socket) operation(socket);
    else pending?.push(operation);
  };

  load.then(
    (loaded) => {
      socket = loaded;
      const queued = pending ?? [];
      pending = null;
      for (const operation of queued) operation(loaded);
    },
    () => {
      pending = null;
      const error = new Error('LIVE_UNAVAILABLE');
      for (const listener of errorListeners) (listener as (error: Error) => void)(error);
    },
  );

  return {
    get connected() {
      return socket?.connected ?? false;
    },
    connect: () => run((s) => s.connect()),
    disconnect: () => run((s) => s.disconnect()),
    on(event, listener) {
      if (event === 'connect_error') errorListeners.add(listener);
      run((s) => s.on(event, listener));
    },
    off(event, listener) {
      if (event === 'connect_error') {
        if (listener) errorListeners.delete(listener);
        else errorListeners.clear();
      }
      run((s) => s.off(event, listener));
    },
    emit: (event, ...args) => run((s) => s.emit(event, ...args)),
  };
}
