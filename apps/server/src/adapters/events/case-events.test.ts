import { describe, expect, it, vi } from 'vitest';
import { createCaseEvents, type CaseEventMessage } from './case-events';

const event = (action: string): CaseEventMessage => ({
  caseId: 1,
  action,
  actorId: 2,
  fromStatus: null,
  toStatus: null,
  detail: {},
  at: new Date(),
});

describe('case events emitter', () => {
  it('delivers to every listener in order; off removes one; a failing listener is logged only', async () => {
    const error = vi.fn();
    const events = createCaseEvents({ error } as never);
    const seen: string[] = [];
    const off = events.on((e) => void seen.push(`a:${e.action}`));
    events.on(() => {
      throw new Error('boom');
    });
    events.on(async () => {
      throw new Error('async boom');
    });
    events.on((e) => void seen.push(`b:${e.action}`));
    events.publish([event('submit'), event('validate')]);
    expect(seen).toEqual(['a:submit', 'b:submit', 'a:validate', 'b:validate']);
    off();
    events.publish(event('attachmentAdded'));
    expect(seen.at(-1)).toBe('b:attachmentAdded');
    expect(seen.filter((s) => s.startsWith('a:'))).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(error).toHaveBeenCalledTimes(6);
  });
});
