import { z } from 'zod';
import { LANGUAGES, type Language } from '../i18n/locale';

/**
 * The approval record of a case: what the client approved (the planning file versions with their
 * SHA-256), when, by whom and from where, with a certificate code anyone may check on the public
 * page (docs/decisions/028-plan-versions-and-approval-record.md).
 */

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is hard to get wrong. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 15 random bytes = 120 bits = 24 base32 characters, shown in six groups of four. */
export const CERTIFICATE_CODE_BYTES = 15;
const CODE_CHARS = (CERTIFICATE_CODE_BYTES * 8) / 5;
const GROUP = 4;

/** The certificate code of 15 random bytes: `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX`. */
export function certificateCodeOf(bytes: Uint8Array): string {
  if (bytes.length !== CERTIFICATE_CODE_BYTES) throw new Error('certificate code: 15 bytes');
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return groupsOf(out);
}

const groupsOf = (chars: string) => chars.match(new RegExp(`.{1,${GROUP}}`, 'g'))!.join('-');

/**
 * A typed code in its stored form, or null when it cannot be one: case, spaces and dashes do
 * not matter, and the letters people confuse with digits (O, I, L) read as those digits.
 */
export function normalizeCertificateCode(input: string): string | null {
  const chars = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (chars.length !== CODE_CHARS) return null;
  for (const char of chars) if (!ALPHABET.includes(char)) return null;
  return groupsOf(chars);
}

/** The record's language: the case owner's, else the approver's (decision 028). */
export const approvalRecordLanguage = (
  ownerLanguage: string | null | undefined,
  approverLanguage: Language,
): Language =>
  (LANGUAGES as readonly string[]).includes(ownerLanguage ?? '')
    ? (ownerLanguage as Language)
    : approverLanguage;

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

export const approvedFileSchema = z.object({
  attachmentId: z.number().int(),
  chainId: z.number().int(),
  version: z.number().int(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: sha256Schema,
});
export type ApprovedFile = z.infer<typeof approvedFileSchema>;

export const approvalRecordSchema = z
  .object({
    id: z.number().int(),
    caseId: z.number().int(),
    approvedAt: z.string(),
    approver: z.object({ id: z.number().int(), name: z.string() }),
    address: z.string(),
    text: z.string(),
    language: z.enum(LANGUAGES),
    certificateCode: z.string(),
    files: z.array(approvedFileSchema),
    services: z.array(z.object({ id: z.number().int(), name: z.string() })),
  })
  .meta({ id: 'ApprovalRecord' });
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

/** The public check of a certificate code: that it matches, when, and the files' hashes. */
export const certificateCheckSchema = z.object({
  match: z.literal(true),
  approvedAt: z.string(),
  files: z.array(z.object({ version: z.number().int(), sha256: sha256Schema })),
});
export type CertificateCheck = z.infer<typeof certificateCheckSchema>;
