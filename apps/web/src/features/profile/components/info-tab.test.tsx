import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { validateInfo, type InfoFormValues } from './info-fields';
import { InfoTab } from './info-tab';

const values = (overrides: Partial<InfoFormValues>): InfoFormValues => ({
  language: 'en',
  currency: 'USD',
  typeOfDocument: 'none',
  document: '',
  mobile: { number: '', whatsapp: false },
  birthDate: '',
  specialization: '',
  gender: '',
  bio: '',
  ...overrides,
});

describe('info form rules', () => {
  beforeEach(() => applyLanguage('en'));

  it.each([
    ['a valid CPF', { typeOfDocument: 'CPF', document: '529.982.247-25' }, undefined],
    [
      'a CPF with a wrong check digit',
      { typeOfDocument: 'CPF', document: '529.982.247-24' },
      'Invalid document number',
    ],
    [
      'a CPF of repeated digits',
      { typeOfDocument: 'CPF', document: '111.111.111-11' },
      'Invalid document number',
    ],
    // As on the server, the check digits are checked once a number is given.
    ['a CPF type without a number yet', { typeOfDocument: 'CPF', document: '' }, undefined],
    ['a valid CNPJ', { typeOfDocument: 'CNPJ', document: '11.222.333/0001-81' }, undefined],
    [
      'a CNPJ with a wrong check digit',
      { typeOfDocument: 'CNPJ', document: '11.222.333/0001-80' },
      'Invalid document number',
    ],
    ['no document of type none', { typeOfDocument: 'none', document: '' }, undefined],
    ['a free document of type none', { typeOfDocument: 'none', document: 'X1234567' }, undefined],
  ] as const)('%s', (_name, overrides, expected) => {
    expect(validateInfo(values(overrides)).document).toBe(expected);
  });

  it.each([
    ['(11) 91234-5678', undefined],
    ['(11) 1234-5678', undefined],
    ['(11) 1234', 'Invalid phone format'],
    ['', undefined],
  ])('phone %j', (number, expected) => {
    expect(validateInfo(values({ mobile: { number, whatsapp: true } }))['mobile.number']).toBe(
      expected,
    );
  });

  it('applies the domain limits (bio up to 1000 characters)', () => {
    expect(validateInfo(values({ bio: 'a'.repeat(1001) })).bio).toBe('Too long');
    expect(validateInfo(values({ bio: 'a'.repeat(1000) })).bio).toBeUndefined();
  });
});

describe('info tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('masks the document and the phone while typing, refuses a bad CPF and saves a good one', async () => {
    const profile = completeProfile({
      dataInfo: { ...completeProfile().dataInfo, typeOfDocument: 'CPF', document: '' },
    });
    const { calls } = mockFetch((call) =>
      ok({
        ...profile,
        dataInfo: { ...profile.dataInfo, ...(call.body as { dataInfo: object }).dataInfo },
      }),
    );
    renderWithApp(<InfoTab profile={profile} />);
    const user = userEvent.setup();

    const documentInput = screen.getByLabelText('Document number');
    await user.type(documentInput, '52998224724');
    expect(documentInput).toHaveValue('529.982.247-24');

    const phone = screen.getByLabelText('Mobile phone');
    await user.type(phone, '11912345678');
    expect(phone).toHaveValue('(11) 91234-5678');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid document number')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.clear(documentInput);
    await user.type(documentInput, '52998224725');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      path: '/profile/set',
      body: {
        dataInfo: {
          typeOfDocument: 'CPF',
          document: '529.982.247-25',
          mobile: { number: '(11) 91234-5678' },
        },
      },
    });
    // Typing key by key through the masks is slow under jsdom when the suite runs in parallel.
  }, 20_000);
});

describe('info form, domain schema details', () => {
  beforeEach(() => applyLanguage('es'));
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a birth date that is not an ISO date, in the interface language', () => {
    expect(validateInfo(values({ birthDate: '31/12/1990' })).birthDate).toBe('Valor no válido');
    expect(validateInfo(values({ birthDate: '1990-12-31' })).birthDate).toBeUndefined();
  });

  it('shows the server errors of dataInfo under the matching fields', async () => {
    mockFetch(() =>
      fail(400, 'VALIDATION_ERROR', 'Error de validación', {
        'dataInfo.document': 'Número de documento no válido',
      }),
    );
    renderWithApp(<InfoTab profile={completeProfile()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Número de documento')).toHaveAccessibleDescription(
        'Número de documento no válido',
      ),
    );
  });
});
