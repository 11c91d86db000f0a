import { describe, expect, it } from 'vitest';
import { createTransferRate, formatDuration, secondsLeft } from './transfer-rate';

describe('transfer rate', () => {
  it('measures the bytes of the last window, not since the start', () => {
    const rate = createTransferRate(5000);
    expect(rate.sample(0, 0)).toBeNull();
    expect(rate.sample(200, 100)).toBeNull();
    expect(rate.sample(1000, 1000)).toBe(1000);
    expect(rate.sample(4000, 4000)).toBe(1000);
    // The samples before 3 s left the window: (16000 - 4000) bytes in 4 s.
    expect(rate.sample(8000, 16_000)).toBe(3000);
    rate.reset();
    expect(rate.sample(9000, 17_000)).toBeNull();
  });

  it.each([
    [0, 1000, 100, 10],
    [950, 1000, 100, 1],
    [1000, 1000, 100, 0],
    [0, 1000, 0, null],
    [0, 1000, null, null],
  ])('%i of %i bytes at %s B/s → %s s left', (sent, total, speed, left) => {
    expect(secondsLeft(sent, total, speed)).toBe(left);
  });

  it.each([
    [0.2, 'en', '1 sec'],
    [45, 'en', '45 sec'],
    [61, 'en', '2 min'],
    [3600, 'en', '1 hr'],
    [3900, 'en', '1 hr 5 min'],
    [120, 'ptBR', '2 min'],
    [30, 'es', '30 s'],
  ])('%d s in %s → %s', (seconds, language, text) => {
    expect(formatDuration(seconds, language)).toBe(text);
  });
});
