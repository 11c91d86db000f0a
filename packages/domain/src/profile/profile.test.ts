import { describe, expect, it } from 'vitest';
import {
  ADDRESS_LIMITS,
  DISPLAY_NAME_MAX,
  dataGeneralSchema,
  displayNameOfNames,
  EMPTY_DATA_CAPABILITIES,
  dataCapabilitiesSchema,
  dataInfoSchema,
  dataInfoUpdateSchema,
  emptyDataInfo,
  fitAddressToLimits,
  isZipCodeFormat,
  dataAddressFormSchema,
  dataGeneralUpdateSchema,
  isAddressDataValid,
  isGeneralDataValid,
  isInfoDataValid,
  isProfileComplete,
} from './profile';
import { SAMPLE_ADDRESS } from '../test-fixtures';

const general = {
  email: 'a@b.co',
  nickName: 'doc',
  displayName: 'Dr A',
  fname: 'Ana',
  lname: 'Silva',
  avatar: null,
};
const address = SAMPLE_ADDRESS;

describe('general data valid only if email, nickName, displayName, fname, lname are set', () => {
  it.each([
    ['complete', general, true],
    ['no email', { ...general, email: '' }, false],
    ['no nickName', { ...general, nickName: ' ' }, false],
    ['no displayName', { ...general, displayName: '' }, false],
    ['no fname', { ...general, fname: '' }, false],
    ['no lname', { ...general, lname: '' }, false],
    ['no avatar is fine', { ...general, avatar: null }, true],
    ['missing', null, false],
  ])('%s', (_, data, ok) => expect(isGeneralDataValid(data)).toBe(ok));
});

describe('info valid when currency and document are set', () => {
  it.each([
    [{ currency: 'BRL' as const, document: '529.982.247-25' }, true],
    [{ currency: 'USD' as const, document: '' }, false],
    [{ document: '123' }, false],
    [null, false],
  ])('%j → %s', (data, ok) => expect(isInfoDataValid(data)).toBe(ok));
});

describe('address valid when zipCode, country, state, city, address are set (complement optional)', () => {
  it.each([
    ['complete', address, true],
    ['no complement', { ...address, complement: '' }, true],
    ['no zip', { ...address, zipCode: '' }, false],
    ['no country', { ...address, country: '' }, false],
    ['no state', { ...address, state: '' }, false],
    ['no city', { ...address, city: '' }, false],
    ['no address', { ...address, address: '' }, false],
  ])('%s', (_, data, ok) => expect(isAddressDataValid(data)).toBe(ok));
});

describe('profile complete = general valid and address valid', () => {
  it.each([
    [{ dataGeneral: general, dataAddress: address }, true],
    [{ dataGeneral: general, dataAddress: { ...address, city: '' } }, false],
    [{ dataGeneral: { ...general, lname: '' }, dataAddress: address }, false],
    [{ dataGeneral: general }, false],
    [null, false],
  ])('%#', (profile, ok) => expect(isProfileComplete(profile)).toBe(ok));
});

describe('address form limits (city 2-60, address 80, complement 40)', () => {
  const ok = (patch: Partial<typeof address>) =>
    dataAddressFormSchema.safeParse({ ...address, ...patch }).success;
  it.each([
    [{ city: 'Rí' }, true],
    [{ city: 'R' }, false],
    [{ city: 'x'.repeat(ADDRESS_LIMITS.cityMax) }, true],
    [{ city: 'x'.repeat(61) }, false],
    [{ address: 'x'.repeat(80) }, true],
    [{ address: 'x'.repeat(81) }, false],
    [{ complement: 'x'.repeat(40) }, true],
    [{ complement: 'x'.repeat(41) }, false],
    [{ zipCode: '' }, false],
    [{ country: '' }, false],
    [{ state: '' }, false],
  ])('%j → %s', (patch, valid) => expect(ok(patch)).toBe(valid));
});

describe('dataGeneralUpdateSchema (field-level authorization)', () => {
  it.each([
    [{ fname: 'Ana' }, true],
    [{ nickName: 'ana2' }, true],
    [{ nickName: 'ana 2' }, false],
    [{ roles: ['admin'] }, false],
    [{ email: 'x@y.z' }, false],
    [{ internal: true }, false],
    [{ dataCapabilities: {} }, false],
    [{ fname: '' }, false],
  ])('%j → %s', (patch, ok) => expect(dataGeneralUpdateSchema.safeParse(patch).success).toBe(ok));
});

describe('dataInfoUpdateSchema (Info tab)', () => {
  it.each([
    [{ language: 'es' }, true],
    [{ typeOfDocument: 'CPF', document: '529.982.247-25' }, true],
    [{ typeOfDocument: 'CPF', document: '529.982.247-24' }, false],
    [{ typeOfDocument: 'CNPJ', document: '11.222.333/0001-81' }, true],
    [{ typeOfDocument: 'none', document: 'passport X1' }, true],
    [{ mobile: { number: '(11) 98765-4321', whatsapp: true } }, true],
    [{ mobile: { number: '', whatsapp: false } }, true],
    [{ mobile: { number: '1234', whatsapp: false } }, false],
    [{ birthDate: '1990-05-31' }, true],
    [{ birthDate: '31/05/1990' }, false],
    [{ currency: 'EUR' }, false],
    [{ roles: ['admin'] }, false],
  ])('%j → %s', (patch, ok) => expect(dataInfoUpdateSchema.safeParse(patch).success).toBe(ok));

  it('reports the phone and document messages', () => {
    const phone = dataInfoUpdateSchema.safeParse({ mobile: { number: '12', whatsapp: false } });
    expect(phone.error?.issues[0]?.message).toBe('validation.invalidPhone');
    const doc = dataInfoUpdateSchema.safeParse({
      typeOfDocument: 'CPF',
      document: '111.111.111-11',
    });
    expect(doc.error?.issues[0]?.message).toBe('validation.invalidDocument');
  });
});

describe('new account defaults', () => {
  it.each([
    ['ptBR', 'BRL'],
    ['en', 'USD'],
    ['es', 'USD'],
  ] as const)(
    'emptyDataInfo(%s) keeps the language and takes its currency %s',
    (language, currency) => {
      const info = emptyDataInfo(language);
      expect(info).toMatchObject({ language, currency, typeOfDocument: 'none', document: '' });
      expect(dataInfoSchema.parse(info)).toEqual(info);
      expect(isInfoDataValid(info)).toBe(false);
    },
  );

  it('grants no capability', () => {
    expect(dataCapabilitiesSchema.parse(EMPTY_DATA_CAPABILITIES)).toEqual({
      physicalCreditCard: false,
      clinicPartner: false,
      instructorDiscount: 0,
      instructorId: null,
      dentalPrev: false,
    });
  });
});

describe('displayNameOfNames', () => {
  const long = 'x'.repeat(60);
  it.each([
    ['Ana', 'Souza', 'Ana Souza'],
    [' Ana ', ' Souza ', 'Ana Souza'],
    ['Ana', '', 'Ana'],
    [long, long, `${long} ${'x'.repeat(DISPLAY_NAME_MAX - 61)}`],
    // The cut falls inside the emoji: its first half goes too.
    ['a'.repeat(DISPLAY_NAME_MAX - 2), '🦷', 'a'.repeat(DISPLAY_NAME_MAX - 2)],
  ])('%j + %j → %j', (fname, lname, expected) => {
    const name = displayNameOfNames(fname, lname);
    expect(name).toBe(expected);
    expect(name.length).toBeLessThanOrEqual(DISPLAY_NAME_MAX);
    expect(dataGeneralSchema.shape.displayName.safeParse(name).success).toBe(true);
  });
});

describe('zip codes and looked-up addresses', () => {
  it.each([
    ['01310-100', true],
    ['01310100', true],
    ['SW1A 1AA', true],
    [' 1000 ', true],
    ['1', false],
    ['-0131', false],
    ['0131#100', false],
    ['1234567890123', false],
  ])('isZipCodeFormat(%j) → %s', (zip, valid) => {
    expect(isZipCodeFormat(zip)).toBe(valid);
  });

  it('cuts every field of a looked-up address to the form limits', () => {
    const long = (n: number) => 'x'.repeat(n + 5);
    const fitted = fitAddressToLimits({
      zipCode: ' 01310-100 ',
      country: long(ADDRESS_LIMITS.country),
      state: long(ADDRESS_LIMITS.state),
      city: long(ADDRESS_LIMITS.cityMax),
      address: long(ADDRESS_LIMITS.address),
      complement: long(ADDRESS_LIMITS.complement),
    });
    expect(fitted.zipCode).toBe('01310-100');
    expect(dataAddressFormSchema.safeParse(fitted).success).toBe(true);
    expect(fitted.address).toHaveLength(ADDRESS_LIMITS.address);
  });
});
