/**
 * Pix "BR Code": the static EMV MPM payload of Banco Central do Brasil's "Manual de Padrões para
 * Iniciação do Pix" (the copy-and-paste code and the QR content). Each field is its 2-digit ID, its
 * 2-digit length and its value; the code ends with field 63, a CRC-16 over everything before it.
 */

/** The Pix GUI inside field 26; the manual writes it in lower case (readers accept any case). */
const PIX_GUI = 'br.gov.bcb.pix';
const MAX_KEY_LENGTH = 77; // 26 holds at most 99: 00 + GUI (18) and 01 + length (4) leave 77
const MAX_MERCHANT_NAME = 25;
const MAX_MERCHANT_CITY = 15;
const MAX_TXID = 25;
const MAX_AMOUNT_LENGTH = 13;
/** Field 62/05 when the receiver sets no transaction id. */
const NO_TXID = '***';
const CRC_FIELD_PREFIX = '6304';
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** The UTF-8 bytes of a text (the domain package has no TextEncoder type: it targets plain ES). */
function* utf8Bytes(text: string): Generator<number> {
  for (const char of text) {
    let code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd; // a lone surrogate, as TextEncoder does
    if (code < 0x80) {
      yield code;
    } else if (code < 0x800) {
      yield 0xc0 | (code >> 6);
      yield 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      yield 0xe0 | (code >> 12);
      yield 0x80 | ((code >> 6) & 0x3f);
      yield 0x80 | (code & 0x3f);
    } else {
      yield 0xf0 | (code >> 18);
      yield 0x80 | ((code >> 12) & 0x3f);
      yield 0x80 | ((code >> 6) & 0x3f);
      yield 0x80 | (code & 0x3f);
    }
  }
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection) over the UTF-8 bytes: 4 hex digits. */
export function crc16Ccitt(payload: string): string {
  let crc = 0xffff;
  for (const byte of utf8Bytes(payload)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The txid of field 62/05: letters and digits only, at most 25, `***` when nothing is left. */
export function pixTxid(reference: string): string {
  return reference.replace(/[^A-Za-z0-9]/g, '').slice(0, MAX_TXID) || NO_TXID;
}

/** Who receives a Pix payment: the Pix key and the name and city shown to the payer. */
export interface PixReceiver {
  key: string;
  merchantName: string;
  merchantCity: string;
}

/** Name and city travel as plain ASCII: accents removed ("São Paulo" → "Sao Paulo"), then cut. */
function asciiText(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\s/g, ' ')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`Pix field ${id} is longer than 99 characters`);
  return id + String(value.length).padStart(2, '0') + value;
}

/** Centavos as the manual's decimal amount: 12345 → "123.45". */
function formatAmount(amount: number): string {
  const cents = String(amount % 100).padStart(2, '0');
  return `${Math.floor(amount / 100)}.${cents}`;
}

/**
 * A static Pix code for `amount` centavos (0: the payer types the amount) and `txid` (from
 * `pixTxid`). Field 01 (point of initiation) is optional and left out, as in the manual's static
 * example. Throws on a key that is empty, longer than 77 or not ASCII, a negative or fractional
 * amount, a txid `pixTxid` would not give, or a name or city with nothing left once made ASCII.
 */
export function buildPixBrCode(input: PixReceiver & { amount: number; txid: string }): string {
  const key = input.key.trim();
  if (!key) throw new Error('Pix key is empty');
  if (key.length > MAX_KEY_LENGTH) throw new Error('Pix key is longer than 77 characters');
  if (!PRINTABLE_ASCII.test(key)) throw new Error('Pix key has characters outside ASCII');
  if (!Number.isSafeInteger(input.amount) || input.amount < 0) {
    throw new Error('Pix amount must be a whole, non-negative number of centavos');
  }
  const amount = input.amount > 0 ? formatAmount(input.amount) : null;
  if (amount && amount.length > MAX_AMOUNT_LENGTH) throw new Error('Pix amount is too large');
  if (input.txid !== NO_TXID && !/^[A-Za-z0-9]{1,25}$/.test(input.txid)) {
    throw new Error('Pix txid must be 1 to 25 letters or digits, or ***');
  }
  const name = asciiText(input.merchantName, MAX_MERCHANT_NAME);
  const city = asciiText(input.merchantCity, MAX_MERCHANT_CITY);
  if (!name) throw new Error('Pix merchant name is empty');
  if (!city) throw new Error('Pix merchant city is empty');

  const body = [
    field('00', '01'),
    field('26', field('00', PIX_GUI) + field('01', key)),
    field('52', '0000'),
    field('53', '986'),
    amount === null ? '' : field('54', amount),
    field('58', 'BR'),
    field('59', name),
    field('60', city),
    field('62', field('05', input.txid)),
  ].join('');
  const signed = body + CRC_FIELD_PREFIX;
  return signed + crc16Ccitt(signed);
}

/**
 * The top-level fields of an EMV payload by ID (nested templates such as 26 and 62 stay as their
 * raw text: parse them again). Throws on a payload that is not a clean sequence of ID + length +
 * value, or that repeats an ID.
 */
export function parseEmv(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const header = payload.slice(at, at + 4);
    if (!/^\d{4}$/.test(header)) throw new Error(`Malformed EMV field at ${at}`);
    const id = header.slice(0, 2);
    const length = Number(header.slice(2));
    const value = payload.slice(at + 4, at + 4 + length);
    if (value.length !== length) throw new Error(`EMV field ${id} is cut short`);
    if (fields.has(id)) throw new Error(`EMV field ${id} appears twice`);
    fields.set(id, value);
    at += 4 + length;
  }
  return fields;
}

/**
 * Whether a payload is a readable Pix code: well-formed fields starting with 00 "01", field 26
 * naming the Pix GUI (any case, as readers accept), and ending with 6304 and the right CRC.
 */
export function isValidPixBrCode(payload: string): boolean {
  try {
    const fields = parseEmv(payload);
    if (!payload.startsWith('000201')) return false;
    // Field 63 must be the last one (Map keeps the payload's order) and hold 4 hex digits.
    const lastId = [...fields.keys()].at(-1);
    const crc = fields.get('63');
    if (lastId !== '63' || crc === undefined || !/^[0-9A-Fa-f]{4}$/.test(crc)) return false;
    if (crc.toUpperCase() !== crc16Ccitt(payload.slice(0, -4))) return false;
    const account = fields.get('26');
    return account !== undefined && parseEmv(account).get('00')?.toLowerCase() === PIX_GUI;
  } catch {
    return false;
  }
}
