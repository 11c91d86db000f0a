/**
 * Erasure of a deleted account (docs/decisions/021-erasure.md): the account row is anonymized,
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

/** How the person is found in the records that stay. */
export interface PersonIdentifiers {
  /**
   * Erased wherever they occur in a text: email, document, phone, and the names of two words or
   * more (full name, a display name like "Dra. Ana Souza").
   */
  inText: string[];
  /**
   * Erased as the whole value of a name field (a key ending in `name`, e.g. `actorName`): the
   * nickname, display name and full name. A one-word name is not looked for in free text: it is
   * a common word or someone else's name as often ("Ana", "Clinic").
   */
  names: string[];
}

const distinct = (values: readonly string[]) => [
  ...new Set(
    values.map((value) => value.trim()).filter((value) => value.length >= MIN_IDENTIFIER_LENGTH),
  ),
];

export function identifiersOf(person: ErasedPerson): PersonIdentifiers {
  const names = distinct([person.nickName, person.displayName, `${person.fname} ${person.lname}`]);
  return {
    inText: distinct([
      person.email,
      person.document,
      person.phone,
      ...names.filter((name) => /\s/.test(name)),
    ]),
    names,
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with every occurrence of the `inText` identifiers (any case) replaced by `ERASED`. */
export function eraseInText(text: string, identifiers: PersonIdentifiers): string {
  // Longest first: a full name goes before a shorter value it contains.
  const sorted = [...identifiers.inText].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return text;
  const pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'gi');
  return text.replace(pattern, ERASED);
}

const isNameField = (key: string) => /name$/i.test(key);
const isOneOfNames = (value: string, names: readonly string[]) =>
  names.some((name) => name.toLowerCase() === value.trim().toLowerCase());

/**
 * A JSON value (audit details, mail parameters) with the person erased: a name field holding one
 * of their names becomes `ERASED`, every other string loses the `inText` identifiers, and with
 * `ownFields` (a record about the person's own account) the values of `PERSONAL_USER_FIELDS`
 * keys become `ERASED` whole, at any depth.
 */
export function eraseInJson(
  value: unknown,
  identifiers: PersonIdentifiers,
  options: { ownFields?: boolean } = {},
): unknown {
  if (typeof value === 'string') return eraseInText(value, identifiers);
  if (Array.isArray(value)) return value.map((item) => eraseInJson(item, identifiers, options));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (options.ownFields && (PERSONAL_USER_FIELDS as readonly string[]).includes(key)) {
          return [key, ERASED];
        }
        if (isNameField(key) && typeof item === 'string' && isOneOfNames(item, identifiers.names)) {
          return [key, ERASED];
        }
        return [key, eraseInJson(item, identifiers, options)];
      }),
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
