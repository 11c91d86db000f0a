import { describe, expect, it } from 'vitest';
import {
  approvalRecordLanguage,
  certificateCodeOf,
  normalizeCertificateCode,
} from './approval-record';

describe('certificateCodeOf', () => {
  it.each([
    [new Uint8Array(15), '0000-0000-0000-0000-0000-0000'],
    [new Uint8Array(15).fill(255), 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ'],
    [Uint8Array.from([0x08, ...new Array<number>(14).fill(0)]), '1000-0000-0000-0000-0000-0000'],
  ])('encodes %o as %s', (bytes, code) => {
    expect(certificateCodeOf(bytes)).toBe(code);
  });

  it('refuses another length', () => {
    expect(() => certificateCodeOf(new Uint8Array(16))).toThrow();
  });
});

describe('normalizeCertificateCode', () => {
  it.each([
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ01', 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01'],
    ['abcd efgh jkmn pqrs tvwx yz01', 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01'],
    ['ABCDEFGHJKMNPQRSTVWXYZOI', 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01'],
    ['abcd-efgh-jkmn-pqrs-tvwx-yzol', 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01'],
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ0', null],
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ0U', null],
    ['', null],
    ['ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-0000', null],
  ])('%s → %s', (input, expected) => {
    expect(normalizeCertificateCode(input)).toBe(expected);
  });

  it('reads back every generated code', () => {
    const bytes = Uint8Array.from({ length: 15 }, (_, i) => (i * 37 + 11) % 256);
    const code = certificateCodeOf(bytes);
    expect(normalizeCertificateCode(code.toLowerCase())).toBe(code);
  });
});

describe('approvalRecordLanguage', () => {
  it.each([
    ['ptBR', 'en', 'ptBR'],
    ['es', 'ptBR', 'es'],
    [null, 'es', 'es'],
    ['xx', 'en', 'en'],
  ] as const)('owner %s, approver %s → %s', (owner, approver, expected) => {
    expect(approvalRecordLanguage(owner, approver)).toBe(expected);
  });
});
