import { describe, expect, it } from 'vitest';
import { deferredSocket } from './deferred-socket';
import type { LiveSocket } from './live-client';

type Listener = (...args: never[]) => void;

/** Records every call in order (the real socket.io socket behind the deferred one). */
function recordingSocket() {
  const calls: string[] = [];
  const socket: LiveSocket = {
    connected: true,
    connect: () => calls.push('connect'),
    disconnect: () => calls.push('disconnect'),
    on: (event: string) => calls.push(`on ${event}`),
    off: (event: string) => calls.push(`off ${event}`),
    emit: (event: string) => calls.push(`emit ${event}`),
  };
  return { socket, calls };
}

describe('deferredSocket', () => {
  it('replays the calls made while the library loads, in order, then forwards them', async () => {
    const { socket, calls } = recordingSocket();
    let arrive: (value: LiveSocket) => void = () => undefined;
    const deferred = deferredSocket(new Promise((resolve) => (arrive = resolve)));
    const listener: Listener = () => undefined;

    deferred.on('connect', listener);
    deferred.connect();
    expect(deferred.connected).toBe(false);
    expect(calls).toEqual([]);

    arrive(socket);
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toEqual(['on connect', 'connect']);
    expect(deferred.connected).toBe(true);

    deferred.emit('case:join', { caseId: 1 });
    deferred.off('connect', listener);
    deferred.disconnect();
    expect(calls).toEqual(['on connect', 'connect', 'emit case:join', 'off connect', 'disconnect']);
  });

  it('tells the connect_error listeners when the library does not load', async () => {
    const deferred = deferredSocket(Promise.reject(new Error('chunk failed')));
    const errors: string[] = [];
    const removed: Listener = () => errors.push('removed listener called');
    deferred.on('connect_error', ((error: Error) => errors.push(error.message)) as Listener);
    deferred.on('connect_error', removed);
    deferred.off('connect_error', removed);
    deferred.connect();

    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toEqual(['LIVE_UNAVAILABLE']);
    expect(deferred.connected).toBe(false);
  });
});
