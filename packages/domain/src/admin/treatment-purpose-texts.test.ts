import { describe, expect, it } from 'vitest';
import { MESSAGE } from '../forms/rules';
import {
  TREATMENT_PURPOSE_TEXT_MAX,
  treatmentPurposesSettingsSchema,
  treatmentPurposeTextFor,
} from './settings-api';

const empty = { ptBR: '', en: '', es: '' };
const texts = (purpose: number, overrides: Partial<typeof empty> = {}) => ({
  purpose,
  ...empty,
  ...overrides,
});

describe('treatment purposes settings', () => {
  it.each([
    ['no purposes at all', [], null],
    ['a text in one language', [texts(3, { en: 'Crown' })], null],
    ['every purpose', [1, 2, 3, 4, 5, 6, 7].map((id) => texts(id, { es: `P${id}` })), null],
    ['exactly the limit', [texts(1, { ptBR: 'x'.repeat(TREATMENT_PURPOSE_TEXT_MAX) })], null],
    ['spaces around, trimmed to the limit', [texts(1, { en: ` ${'x'.repeat(60)} ` })], null],
    [
      'one character too long',
      [texts(1, { ptBR: 'x'.repeat(TREATMENT_PURPOSE_TEXT_MAX + 1) })],
      ['treatmentPurposes.0.ptBR', MESSAGE.max],
    ],
    [
      'a tab',
      [texts(2, { en: 'Crown\ton tooth' })],
      ['treatmentPurposes.0.en', MESSAGE.invalidCharacters],
    ],
    [
      'a line break',
      [texts(2, { es: 'Corona\nsobre' })],
      ['treatmentPurposes.0.es', MESSAGE.invalidCharacters],
    ],
    [
      'a NUL',
      [texts(2, { es: 'a\u0000b' })],
      ['treatmentPurposes.0.es', MESSAGE.invalidCharacters],
    ],
    ['unknown purpose 0', [texts(0)], ['treatmentPurposes.0.purpose', MESSAGE.invalid]],
    ['unknown purpose 8', [texts(1), texts(8)], ['treatmentPurposes.1.purpose', MESSAGE.invalid]],
    ['a purpose twice', [texts(4), texts(4)], ['treatmentPurposes.1.purpose', MESSAGE.invalid]],
  ] as const)('%s', (_name, rows, expected) => {
    const parsed = treatmentPurposesSettingsSchema.safeParse({ treatmentPurposes: rows });
    if (expected === null) {
      expect(parsed.error).toBeUndefined();
      return;
    }
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      expected,
    ]);
  });

  it('answers all seven purposes in id order, trimmed, empty where none is given', () => {
    const parsed = treatmentPurposesSettingsSchema.parse({
      treatmentPurposes: [texts(5, { en: '  All-on-4 ' }), texts(2, { ptBR: 'Lentes' })],
    });
    expect(parsed.treatmentPurposes).toEqual([
      texts(1),
      texts(2, { ptBR: 'Lentes' }),
      texts(3),
      texts(4),
      texts(5, { en: 'All-on-4' }),
      texts(6),
      texts(7),
    ]);
  });

  it('reads the name of a purpose in a language; empty when none is set', () => {
    const stored = [texts(2, { ptBR: 'Lentes', en: '' })];
    expect(treatmentPurposeTextFor(stored, 2, 'ptBR')).toBe('Lentes');
    expect(treatmentPurposeTextFor(stored, 2, 'en')).toBe('');
    expect(treatmentPurposeTextFor(stored, 3, 'ptBR')).toBe('');
  });
});
