import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildPixBrCode, crc16Ccitt, isValidPixBrCode, parseEmv, pixTxid } from './pix-br-code';

const RECEIVER = { key: 'chave@exemplo.com', merchantName: 'Clinica', merchantCity: 'RECIFE' };

/** Replaces one character of a code, keeping everything else. */
const withCharAt = (code: string, at: number, char: string) =>
  code.slice(0, at) + char + code.slice(at + 1);

describe('crc16Ccitt (CRC-16/CCITT-FALSE)', () => {
  // "123456789" is the algorithm's standard check value; the others were computed over the UTF-8
  // bytes by a separate implementation (Node's Buffer), so multi-byte characters are covered.
  it.each([
    ['123456789', '29B1'],
    ['', 'FFFF'],
    ['A', 'B915'],
    ['São Paulo', 'E390'],
    ['Ωmega €', '5147'],
    ['dente 🦷', '61F0'],
  ])('%j → %s', (text, crc) => expect(crc16Ccitt(text)).toBe(crc));
});

/**
 * Codes published with their parts. Sources: the Banco Central manual's static example; the
 * payzu.com.br docs ("Pagar um Pix copia e cola", with amount and txid); the README of the
 * rayanetenorios/pix-payload package on packagist.org; the READMEs of the pixqrcodegen and
 * PixPayloadGen packages on pypi.org (these two write the GUI in upper case).
 */
const PUBLISHED = [
  {
    source: 'BCB manual',
    code: '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
    parts: {
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      amount: 0,
      txid: '***',
    },
  },
  {
    source: 'payzu docs',
    code: '00020126400014br.gov.bcb.pix0118fulano@exemplo.com520400005303986540525.005802BR5913FULANO DE TAL6009SAO PAULO62140510PEDIDO482163048572',
    parts: {
      key: 'fulano@exemplo.com',
      merchantName: 'FULANO DE TAL',
      merchantCity: 'SAO PAULO',
      amount: 2500,
      txid: 'PEDIDO4821',
    },
  },
  {
    source: 'pix-payload (packagist)',
    code: '00020126410014br.gov.bcb.pix0119rayane@alvoz.com.br5204000053039865802BR5901N6001C62070503***63043A81',
    parts: {
      key: 'rayane@alvoz.com.br',
      merchantName: 'N',
      merchantCity: 'C',
      amount: 0,
      txid: '***',
    },
  },
  {
    source: 'pixqrcodegen (pypi)',
    code: '00020126330014BR.GOV.BCB.PIX01111234567890052040000530398654041.005802BR5914Nome Sobrenome6015Cidade Ficticia62100506LOJA016304C8E4',
    parts: {
      key: '12345678900',
      merchantName: 'Nome Sobrenome',
      merchantCity: 'Cidade Ficticia',
      amount: 100,
      txid: 'LOJA01',
    },
  },
  {
    source: 'PixPayloadGen (pypi)',
    code: '00020126330014BR.GOV.BCB.PIX011197212482404520400005303986540530.005802BR5918Victor Julio Rocha6006RECIFE62110507VIPSURF630425A1',
    parts: {
      key: '97212482404',
      merchantName: 'Victor Julio Rocha',
      merchantCity: 'RECIFE',
      amount: 3000,
      txid: 'VIPSURF',
    },
  },
];

describe('published BR Codes', () => {
  it.each(PUBLISHED)('$source is accepted', ({ code }) => {
    expect(isValidPixBrCode(code)).toBe(true);
  });

  it.each(PUBLISHED)('$source is rebuilt from its parts', ({ code, parts }) => {
    const built = buildPixBrCode(parts);
    if (code.includes('br.gov.bcb.pix')) {
      expect(built).toBe(code);
    } else {
      // We write the GUI in lower case as the manual does; the rest must match byte for byte.
      const lowered = code.slice(0, -4).replace('BR.GOV.BCB.PIX', 'br.gov.bcb.pix');
      expect(built).toBe(lowered + crc16Ccitt(lowered));
    }
  });

  it.each(PUBLISHED)('$source fails when any digit of its body changes', ({ code }) => {
    for (let at = 0; at < code.length - 4; at++) {
      const char = code[at]!;
      if (!/\d/.test(char)) continue;
      const changed = withCharAt(code, at, char === '9' ? '0' : String(Number(char) + 1));
      expect(isValidPixBrCode(changed), `digit ${at} changed`).toBe(false);
    }
  });

  it('a changed letter of the name fails the CRC', () => {
    const code = PUBLISHED[0]!.code.replace('Fulano', 'Fulana');
    expect(isValidPixBrCode(code)).toBe(false);
  });

  it('a changed CRC fails; the CRC may be written in lower case', () => {
    const code = PUBLISHED[0]!.code;
    expect(isValidPixBrCode(code.slice(0, -4) + '1D3E')).toBe(false);
    expect(isValidPixBrCode(code.slice(0, -4) + '1d3d')).toBe(true);
  });
});

describe('isValidPixBrCode rejects', () => {
  const tlv = (id: string, value: string) => id + String(value.length).padStart(2, '0') + value;
  const sign = (body: string) => body + '6304' + crc16Ccitt(body + '6304');
  const good = buildPixBrCode({ ...RECEIVER, amount: 1050, txid: 'ABC123' });
  /** The fields after 26, without the CRC (00 and 26 come first). */
  const afterAccount = good.slice(6 + 4 + parseEmv(good).get('26')!.length, -8);

  it.each([
    ['empty text', ''],
    ['a cut code', good.slice(0, -1)],
    ['a code with text after the CRC', good + '0'],
    ['no CRC field', good.slice(0, -8)],
    ['a length longer than the rest', '000201269900'],
    ['a letter where a field ID goes', good.replace('5204', 'X204')],
    [
      'another GUI in field 26',
      sign('000201' + tlv('26', tlv('00', 'com.example.pix') + tlv('01', 'chave')) + afterAccount),
    ],
    ['no field 26', sign('00020152040000530398654041.005802BR5901N6001C62070503***')],
    ['a payload not starting with 00 "01"', sign('000202' + good.slice(6, -8))],
    ['field 00 repeated', sign('000201' + good.slice(0, -8))],
    ['the CRC field with 3 digits', good.slice(0, -8) + '6303' + crc16Ccitt('6303').slice(1)],
  ])('%s', (_label, code) => expect(isValidPixBrCode(code)).toBe(false));

  it('accepts the code they were made from (so each case above fails for its own reason)', () => {
    expect(isValidPixBrCode(good)).toBe(true);
    expect(isValidPixBrCode(sign(good.slice(0, -8)))).toBe(true);
    const pixAccount = tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', 'chave'));
    expect(isValidPixBrCode(sign('000201' + pixAccount + afterAccount))).toBe(true);
  });
});

describe('parseEmv', () => {
  it('reads the top-level fields in order and leaves templates raw', () => {
    const fields = parseEmv(PUBLISHED[1]!.code);
    expect([...fields.keys()]).toEqual([
      '00',
      '26',
      '52',
      '53',
      '54',
      '58',
      '59',
      '60',
      '62',
      '63',
    ]);
    expect(fields.get('54')).toBe('25.00');
    expect(fields.get('62')).toBe('0510PEDIDO4821');
    expect(parseEmv(fields.get('26')!).get('01')).toBe('fulano@exemplo.com');
  });

  it.each([
    ['a length past the end', '0005abc'],
    ['a non-digit length', '00a1x'],
    ['a dangling header', '000201630'],
    ['a repeated ID', '000201000201'],
  ])('throws on %s', (_label, payload) => expect(() => parseEmv(payload)).toThrow());

  it('reads empty text as no fields', () => expect(parseEmv('').size).toBe(0));
});

describe('buildPixBrCode', () => {
  const fieldsOf = (input: Partial<Parameters<typeof buildPixBrCode>[0]>) =>
    parseEmv(buildPixBrCode({ ...RECEIVER, amount: 0, txid: '***', ...input }));

  it('puts the fields in the manual order, with no point of initiation (01)', () => {
    const fields = fieldsOf({ amount: 12345, txid: 'REF1' });
    expect([...fields.keys()]).toEqual([
      '00',
      '26',
      '52',
      '53',
      '54',
      '58',
      '59',
      '60',
      '62',
      '63',
    ]);
    expect(fields.get('26')).toBe('0014br.gov.bcb.pix0117chave@exemplo.com');
    expect(fields.get('62')).toBe('0504REF1');
  });

  it.each([
    [1, '0.01'],
    [99, '0.99'],
    [100, '1.00'],
    [12345, '123.45'],
    [1_000_000_00, '1000000.00'],
    [999_999_999_999, '9999999999.99'],
  ])('%i centavos → 54 = %s', (amount, text) => expect(fieldsOf({ amount }).get('54')).toBe(text));

  it('leaves the amount out when it is 0 (the payer types it)', () => {
    expect(fieldsOf({ amount: 0 }).has('54')).toBe(false);
  });

  it.each([
    ['São Luís', 'Sao Luis'],
    ['João da Conceição', 'Joao da Conceicao'],
    ['Clínica Odontológica Sorriso Feliz', 'Clinica Odontologica Sorr'],
    ['  Dr.  Ângelo\tMüller  ', 'Dr. Angelo Muller'],
    ['Łódź ✓ Dental', 'odz Dental'],
  ])('merchant name %j → %j (ASCII, at most 25)', (merchantName, expected) => {
    expect(fieldsOf({ merchantName }).get('59')).toBe(expected);
  });

  it.each([
    ['São Gonçalo do Rio Abaixo', 'Sao Goncalo do'],
    ['Brasília', 'Brasilia'],
    ['Florianópolis', 'Florianopolis'],
  ])('city %j → %j (ASCII, at most 15, no trailing space)', (merchantCity, expected) => {
    expect(fieldsOf({ merchantCity }).get('60')).toBe(expected);
  });

  it('trims the key', () => {
    expect(parseEmv(fieldsOf({ key: '  +5511999999999 ' }).get('26')!).get('01')).toBe(
      '+5511999999999',
    );
  });

  it('takes a key of 77 characters, the most field 26 can hold', () => {
    const code = buildPixBrCode({ ...RECEIVER, key: 'k'.repeat(77), amount: 0, txid: '***' });
    expect(isValidPixBrCode(code)).toBe(true);
    expect(parseEmv(code).get('26')).toHaveLength(99);
  });

  it.each([
    ['an empty key', { key: '' }],
    ['a blank key', { key: '   ' }],
    ['a key longer than 77', { key: 'k'.repeat(78) }],
    ['a key outside ASCII', { key: 'joão@exemplo.com' }],
    ['a negative amount', { amount: -1 }],
    ['a fractional amount', { amount: 10.5 }],
    ['an amount that is not a number', { amount: Number.NaN }],
    ['an amount too long for field 54', { amount: 1_000_000_000_000 }],
    ['a txid with a dash', { txid: 'PED-1' }],
    ['an empty txid', { txid: '' }],
    ['a txid longer than 25', { txid: 'A'.repeat(26) }],
    ['a name with nothing left in ASCII', { merchantName: '日本' }],
    ['an empty city', { merchantCity: ' ' }],
  ])('throws on %s', (_label, input) => {
    expect(() => buildPixBrCode({ ...RECEIVER, amount: 100, txid: 'T1', ...input })).toThrow(Error);
  });
});

describe('pixTxid', () => {
  it.each([
    ['TX-2026-000123', 'TX2026000123'],
    ['abc_DEF 123', 'abcDEF123'],
    ['ção', 'o'],
    ['A'.repeat(30), 'A'.repeat(25)],
    ['12345678901234567890123456789', '1234567890123456789012345'],
    ['', '***'],
    ['---', '***'],
    ['***', '***'],
  ])('%j → %j', (reference, txid) => expect(pixTxid(reference)).toBe(txid));
});

describe('property: any code built is valid and reads back', () => {
  const text = fc.string({ unit: fc.constantFrom(...'aAçÇãÕé Zz09-.ñ'), maxLength: 40 });

  it('carries its amount, txid and key, and passes the checks', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
          minLength: 1,
          maxLength: 77,
        }),
        text,
        text,
        fc.integer({ min: 0, max: 999_999_999_999 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        (key, name, city, amount, reference) => {
          const txid = pixTxid(reference);
          const code = buildPixBrCode({
            key,
            merchantName: `M${name}`,
            merchantCity: `C${city}`,
            amount,
            txid,
          });
          expect(isValidPixBrCode(code)).toBe(true);
          const fields = parseEmv(code);
          expect(fields.get('54') ?? null).toBe(amount ? (amount / 100).toFixed(2) : null);
          expect(parseEmv(fields.get('62')!).get('05')).toBe(txid);
          expect(parseEmv(fields.get('26')!).get('01')).toBe(key);
          expect(fields.get('59')!.length).toBeLessThanOrEqual(25);
          expect(fields.get('60')!.length).toBeLessThanOrEqual(15);
        },
      ),
    );
  });
});
