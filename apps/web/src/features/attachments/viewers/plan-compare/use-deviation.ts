import { useEffect, useRef, useState } from 'react';
import type { BufferGeometry } from 'three';
import type { DeviationResult } from './deviation';

export interface DeviationRequest {
  older: Float32Array;
  newer: Float32Array;
}
export type DeviationReply =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: DeviationResult }
  | { type: 'failed' };

export type DeviationState =
  | { status: 'idle' }
  | { status: 'running'; fraction: number }
  | { status: 'done'; result: DeviationResult }
  | { status: 'failed' };

const positionsOf = (geometry: BufferGeometry) =>
  // A copy: the arrays move to the worker, and the page keeps drawing the originals.
  Float32Array.from(geometry.getAttribute('position').array);

/** Runs the map where no Web Worker is available (the page's thread, after a paint). */
async function computeHere(
  request: DeviationRequest,
  onReply: (reply: DeviationReply) => void,
): Promise<void> {
  const { computeDeviation } = await import('./deviation');
  await new Promise((resolve) => setTimeout(resolve, 0));
  onReply({ type: 'done', result: computeDeviation(request.older, request.newer) });
}

/**
 * The deviation map of `newer` against `older`, computed in a Web Worker once both are loaded
 * and `enabled`; the progress while it runs. Kept while the same pair stays open.
 */
export function useDeviation(
  older: BufferGeometry | null,
  newer: BufferGeometry | null,
  enabled: boolean,
): DeviationState {
  const [state, setState] = useState<{ key: string; value: DeviationState } | null>(null);
  const done = useRef<{ key: string; value: DeviationState } | null>(null);
  const key = older && newer ? `${older.uuid}:${newer.uuid}` : '';
  const wanted = enabled && key !== '';

  useEffect(() => {
    if (!wanted || !older || !newer || done.current?.key === key) return;
    let finished = false;
    const onReply = (reply: DeviationReply) => {
      if (finished) return;
      const value: DeviationState =
        reply.type === 'progress'
          ? { status: 'running', fraction: reply.fraction }
          : reply.type === 'done'
            ? { status: 'done', result: reply.result }
            : { status: 'failed' };
      if (reply.type !== 'progress') {
        finished = true;
        done.current = { key, value };
      }
      setState({ key, value });
    };
    setState({ key, value: { status: 'running', fraction: 0 } });
    const request: DeviationRequest = { older: positionsOf(older), newer: positionsOf(newer) };
    if (typeof Worker === 'undefined') {
      computeHere(request, onReply).catch(() => onReply({ type: 'failed' }));
      return () => {
        finished = true;
      };
    }
    const worker = new Worker(new URL('./deviation.worker.ts', import.meta.url), {
      type: 'module',
    });
    worker.addEventListener('message', (event: MessageEvent<DeviationReply>) =>
      onReply(event.data),
    );
    worker.addEventListener('error', () => onReply({ type: 'failed' }));
    worker.postMessage(request, [request.older.buffer, request.newer.buffer]);
    return () => {
      // Leaving the map (or the pair) stops the run; coming back starts it again.
      finished = true;
      worker.terminate();
    };
    // The geometries are identified by the key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, wanted]);

  return state?.key === key ? state.value : { status: 'idle' };
}
