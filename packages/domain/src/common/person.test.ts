import { describe, expect, it } from 'vitest';
import { isPatientValid, isPersonValid, personDisplayName, truncateName } from './person';
import { translatedName } from './name-translation';

describe('person', () => {
  it.each([
    [{ fname: 'Ana', lname: 'Silva' }, 'Ana Silva'],
    [{ fname: 'Ana', lname: '' }, 'Ana'],
    [{ fname: ' ', lname: 'Silva' }, 'Silva'],
    [null, ''],
  ])('display name of %j → %s', (person, name) => expect(personDisplayName(person)).toBe(name));
  it.each([
    [{ id: 1 }, true],
    [{ id: 0 }, false],
    [{ id: -3 }, false],
    [null, false],
  ])('%j valid → %s', (person, ok) => expect(isPersonValid(person)).toBe(ok));
});

describe('patient requires first and last name', () => {
  it.each([
    [{ fname: 'Ana', lname: 'Silva' }, true],
    [{ fname: 'Ana', lname: ' ' }, false],
    [{ fname: '', lname: 'Silva' }, false],
    [{ fname: 'Ana' }, false],
    [null, false],
  ])('%j → %s', (patient, ok) => expect(isPatientValid(patient)).toBe(ok));
});

describe('patient cards truncate names to 15 characters', () => {
  it.each([
    ['Ana Silva', 'Ana Silva'],
    ['Maria Aparecida', 'Maria Aparecida'],
    ['Maria Aparecida Santos', 'Maria Aparecida…'],
  ])('%s → %s', (name, shown) => expect(truncateName(name)).toBe(shown));
});

describe('name translation', () => {
  it.each([
    ['ptBR', 'Guia'],
    ['es', 'Guide'],
  ] as const)('%s → %s', (language, name) =>
    expect(translatedName({ ptBR: 'Guia', en: 'Guide', es: '' }, language)).toBe(name),
  );
});
