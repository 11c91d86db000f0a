import { beforeEach, describe, expect, it } from 'vitest';
import { applyLanguage } from '../../lib/i18n';
import { chatRows, dayKey, dayLabel } from './chat-days';
import { chatMessage } from './test-fixtures';

const labels = { today: 'Today', yesterday: 'Yesterday' };
const local = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h);

describe('chat day separators', () => {
  beforeEach(() => applyLanguage('en'));

  it('puts one separator before the first message of each local day', () => {
    const rows = chatRows([
      chatMessage({ id: 1, sendAt: local(2026, 11, 19, 23).toISOString() }),
      chatMessage({ id: 2, sendAt: local(2026, 11, 20, 0).toISOString() }),
      chatMessage({ id: 3, sendAt: local(2026, 11, 20, 15).toISOString() }),
    ]);
    expect(rows.map((row) => (row.kind === 'day' ? dayKey(row.day) : row.message.id))).toEqual([
      '2026-11-19',
      1,
      '2026-11-20',
      2,
      3,
    ]);
    expect(chatRows([])).toEqual([]);
  });

  it('reads Today, Yesterday, a weekday this year and a full date before', () => {
    const now = local(2026, 3, 1, 10);
    expect(dayLabel(local(2026, 3, 1, 0), labels, now)).toBe('Today');
    // Across a month end.
    expect(dayLabel(local(2026, 2, 28, 23), labels, now)).toBe('Yesterday');
    expect(dayLabel(local(2026, 2, 20), labels, now)).toBe('Friday, February 20');
    expect(dayLabel(local(2025, 12, 31), labels, now)).toBe('December 31, 2025');
  });

  it('writes dates in the interface language', async () => {
    await applyLanguage('ptBR');
    expect(dayLabel(local(2025, 12, 31), labels, local(2026, 3, 1))).toBe('31 de dezembro de 2025');
    await applyLanguage('es');
    expect(dayLabel(local(2026, 2, 20), labels, local(2026, 3, 1))).toBe('viernes, 20 de febrero');
  });
});
