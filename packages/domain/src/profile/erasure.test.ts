import { describe, expect, it } from 'vitest';
import {
  ERASED,
  eraseInJson,
  eraseInText,
  identifiersOf,
  withoutPersonReferences,
  type ErasedPerson,
} from './erasure';

const person: ErasedPerson = {
  email: 'Ana.Souza@Clinic.test',
  nickName: 'anasouza',
  fname: 'Ana',
  lname: 'Souza',
  displayName: 'Dra. Ana',
  document: '123.456.789-09',
  phone: '',
};

describe('identifiersOf', () => {
  it('looks for contacts and multi-word names in text, and every name as a name field', () => {
    expect(identifiersOf(person)).toEqual({
      inText: ['Ana.Souza@Clinic.test', '123.456.789-09', 'Dra. Ana', 'Ana Souza'],
      names: ['anasouza', 'Dra. Ana', 'Ana Souza'],
    });
  });

  it.each([
    [
      'a display name equal to the full name, once',
      { displayName: 'Ana Souza' },
      ['anasouza', 'Ana Souza'],
    ],
    ['a short nickname left out', { nickName: 'ab' }, ['Dra. Ana', 'Ana Souza']],
    [
      'a one-word display name only as a name field',
      { displayName: 'Doctor' },
      ['anasouza', 'Doctor', 'Ana Souza'],
    ],
  ])('%s', (_label, change, names) => {
    const found = identifiersOf({ ...person, ...change });
    expect(found.names).toEqual(names);
    expect(found.inText).not.toContain('Doctor');
  });
});

describe('eraseInText', () => {
  const ids = identifiersOf(person);
  it.each([
    ['Write to ana.souza@clinic.test today', `Write to ${ERASED} today`],
    ['Signed, Ana Souza', `Signed, ${ERASED}`],
    ['Dra. Ana wrote', `${ERASED} wrote`],
    ['CPF 123.456.789-09', `CPF ${ERASED}`],
    // A bare first name or a nickname is someone else's, or a common word, as often as hers.
    ['Ana will call', 'Ana will call'],
    ['ask anasouza', 'ask anasouza'],
    ['nothing personal', 'nothing personal'],
    // Regular-expression characters in a value are matched literally.
    ['Dra- Ana', 'Dra- Ana'],
  ])('%s → %s', (text, expected) => {
    expect(eraseInText(text, ids)).toBe(expected);
  });

  it('changes nothing without identifiers', () => {
    expect(eraseInText('Ana Souza', { inText: [], names: [] })).toBe('Ana Souza');
  });
});

describe('eraseInJson', () => {
  const ids = identifiersOf({ ...person, displayName: 'Doctor' });
  it('erases contacts in every string and their names in name fields, keeping other values', () => {
    expect(
      eraseInJson(
        {
          after: { email: 'ana.souza@clinic.test', language: 'en' },
          actorName: 'doctor',
          instructorName: 'anasouza',
          roles: ['doctor'],
          items: ['Ana Souza', 3],
        },
        ids,
      ),
    ).toEqual({
      after: { email: ERASED, language: 'en' },
      actorName: ERASED,
      instructorName: ERASED,
      // Not a name field: the role stays although it is spelled like her display name.
      roles: ['doctor'],
      items: [ERASED, 3],
    });
  });

  it('in a record about the person, erases the personal fields whole, whatever they hold', () => {
    const details = {
      changed: ['fname', 'roles', 'dataAddress'],
      before: { fname: 'Ana', roles: ['doctor'], dataAddress: { city: 'Recife' } },
      after: { fname: 'Anna', roles: ['clinic'], dataAddress: { city: 'Olinda' } },
    };
    expect(eraseInJson(details, ids, { ownFields: true })).toEqual({
      changed: ['fname', 'roles', 'dataAddress'],
      before: { fname: ERASED, roles: ['doctor'], dataAddress: ERASED },
      after: { fname: ERASED, roles: ['clinic'], dataAddress: ERASED },
    });
    // Not about the person: another user's first name stays.
    expect(eraseInJson({ after: { fname: 'Ana' } }, ids)).toEqual({ after: { fname: 'Ana' } });
  });

  it.each([null, 7, true])('leaves %j as it is', (value) => {
    expect(eraseInJson(value, ids)).toBe(value);
  });
});

describe('withoutPersonReferences', () => {
  it.each([
    [{ userId: 4 }, {}],
    [{ plannerId: 4, serviceIds: [1, 2] }, { serviceIds: [1, 2] }],
    [{ changed: ['observation'], notified: [3, 4] }, { changed: ['observation'] }],
    [
      { before: { clinicId: 1, partnerId: 2 }, after: null },
      { before: {}, after: null },
    ],
    [[{ actorId: 1, action: 'x' }], [{ action: 'x' }]],
    [
      { reviewId: 3, reasonId: 2 },
      { reviewId: 3, reasonId: 2 },
    ],
    [null, null],
    ['text', 'text'],
  ])('%j → %j', (value, expected) => {
    expect(withoutPersonReferences(value)).toEqual(expected);
  });
});
