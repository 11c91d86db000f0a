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
  it('takes the distinctive values, never a bare first name or an empty field', () => {
    expect(identifiersOf(person)).toEqual([
      'Ana.Souza@Clinic.test',
      'anasouza',
      'Dra. Ana',
      'Ana Souza',
      '123.456.789-09',
    ]);
  });

  it.each([
    [{ ...person, displayName: 'Ana Souza' }, 'a display name equal to the full name once'],
    [{ ...person, nickName: 'ab' }, 'a short nickname left out'],
  ])('%j: %s', (input, _label) => {
    const found = identifiersOf(input);
    expect(new Set(found).size).toBe(found.length);
    expect(found.every((value) => value.length >= 4)).toBe(true);
  });
});

describe('eraseInText', () => {
  const ids = identifiersOf(person);
  it.each([
    ['Write to ana.souza@clinic.test today', `Write to ${ERASED} today`],
    ['Signed, Ana Souza', `Signed, ${ERASED}`],
    ['Dra. Ana wrote', `${ERASED} wrote`],
    ['CPF 123.456.789-09', `CPF ${ERASED}`],
    // A bare first name is someone else's as often as hers.
    ['Ana will call', 'Ana will call'],
    ['nothing personal', 'nothing personal'],
    // Regular-expression characters in a value are matched literally.
    ['Dra- Ana', 'Dra- Ana'],
  ])('%s → %s', (text, expected) => {
    expect(eraseInText(text, ids)).toBe(expected);
  });

  it('changes nothing without identifiers', () => {
    expect(eraseInText('Ana Souza', [])).toBe('Ana Souza');
  });
});

describe('eraseInJson', () => {
  const ids = identifiersOf(person);
  it('erases identifiers in every string at any depth, keeping other values', () => {
    expect(
      eraseInJson(
        { after: { email: 'ana.souza@clinic.test', language: 'en' }, items: ['Ana Souza', 3] },
        ids,
      ),
    ).toEqual({ after: { email: ERASED, language: 'en' }, items: [ERASED, 3] });
  });

  it('in a record about the person, erases the personal fields whole, whatever they hold', () => {
    const details = {
      changed: ['fname', 'roles', 'dataAddress'],
      before: {
        fname: 'Ana',
        roles: ['doctor'],
        dataAddress: { city: 'Recife', zipCode: '50000-000' },
      },
      after: {
        fname: 'Anna',
        roles: ['clinic'],
        dataAddress: { city: 'Olinda', zipCode: '53000-000' },
      },
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
