/**
 * Erasure of a deleted account (docs/decisions/0XX-erasure.md): the account row is anonymized,
 * and the records that outlive it (audit log, invitations, mail outbox, chat messages) lose the
 * person's contact and identity data. Cases, transactions and invoices stay for the law.
 */

/** What replaces an erased value inside a record that is kept. */
export const ERASED = '[erased]';

/** The anonymized account's email and nickname (never a real address: `.invalid`). */
export const deletedEmailOf = (userId: number) => `deleted-${userId}@deleted.invalid`;
export const deletedNickNameOf = (userId: number) => `deleted-${userId}`;

/**
 * The fields of a user record (as `user.set` audits them in `before`/`after`) that hold personal
 * data: names, contacts, documents, address, picture. Roles and flags are not personal data.
 */
export const PERSONAL_USER_FIELDS = [
  'email',
  'nickName',
  'fname',
  'lname',
  'displayName',
  'avatar',
  'dataInfo',
  'dataAddress',
] as const;

/** What identifies the person in free values. */
export interface ErasedPerson {
  email: string;
  nickName: string;
  fname: string;
  lname: string;
  displayName: string;
  /** CPF/CNPJ. */
  document: string;
  phone: string;
}

/** Shorter values (an initial, a two-letter name) are not told apart from other text. */
const MIN_IDENTIFIER_LENGTH = 4;

/**
 * The person's identifying values, distinct and long enough to be looked for: email, nickname,
 * display name, full name, document and phone. First and last names alone are not: they match
 * other people ("Ana"), so a kept record loses them only inside the person's own fields.
 */
export function identifiersOf(person: ErasedPerson): string[] {
  const candidates = [
    person.email,
    person.nickName,
    person.displayName,
    `${person.fname} ${person.lname}`,
    person.document,
    person.phone,
  ].map((value) => value.trim());
  return [...new Set(candidates.filter((value) => value.length >= MIN_IDENTIFIER_LENGTH))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every occurrence of the identifiers (any case) replaced by `ERASED`. */
export function eraseInText(text: string, identifiers: readonly string[]): string {
  // Longest first: the full name goes before a display name it contains.
  const sorted = [...identifiers].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return text;
  const pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'gi');
  return text.replace(pattern, ERASED);
}

/**
 * A JSON value (audit details, mail parameters) with the person erased: every string loses the
 * identifiers it contains, and with `ownFields` (a record about the person) the values of
 * `PERSONAL_USER_FIELDS` keys become `ERASED` whole, at any depth.
 */
export function eraseInJson(
  value: unknown,
  identifiers: readonly string[],
  options: { ownFields?: boolean } = {},
): unknown {
  if (typeof value === 'string') return eraseInText(value, identifiers);
  if (Array.isArray(value)) return value.map((item) => eraseInJson(item, identifiers, options));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        options.ownFields && (PERSONAL_USER_FIELDS as readonly string[]).includes(key)
          ? ERASED
          : eraseInJson(item, identifiers, options),
      ]),
    );
  }
  return value;
}

/**
 * Keys under which records name a user by id (case history details, audit details). The personal
 * data export leaves them out: it carries the caller's own data, never other people's ids.
 */
export const PERSON_REFERENCE_KEYS = [
  'userId',
  'plannerId',
  'actorId',
  'notified',
  'partnerId',
  'clinicId',
  'instructorId',
  'studentId',
  'payerId',
  'fromUser',
  'createdBy',
  'solvedBy',
  'authUser',
  'requestUser',
  'submittedBy',
  'deletedBy',
  'acceptedBy',
] as const;

/** A JSON value without the `PERSON_REFERENCE_KEYS` entries, at any depth. */
export function withoutPersonReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPersonReferences);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !(PERSON_REFERENCE_KEYS as readonly string[]).includes(key))
        .map(([key, item]) => [key, withoutPersonReferences(item)]),
    );
  }
  return value;
}
