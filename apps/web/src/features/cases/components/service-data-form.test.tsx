import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyServiceDataV3, isServiceDataValid, type ServiceDataV3 } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { ServiceDataForm, serviceDataErrors } from './service-data-form';

const complete = (overrides: Partial<ServiceDataV3> = {}): ServiceDataV3 => ({
  ...emptyServiceDataV3(),
  jaw: 'upper',
  implantSystem: { manufactureName: 'Neodent', systemName: 'Grand Morse' },
  extractTeeth: false,
  hasOrtho: false,
  plasticGum: false,
  provision: true,
  treatmentPurpose: { purpose: 4 },
  terms: { checked: true },
  extra: 'Implant at 36',
  ...overrides,
});

describe('service data rules in the form', () => {
  it.each([
    ['complete, category 3', complete(), 3, []],
    ['no jaw, category 3', complete({ jaw: null }), 3, ['jaw']],
    // Only category 3 asks for the jaw and the implant system.
    [
      'no jaw nor implant, category 2',
      complete({ jaw: null, implantSystem: { manufactureName: '', systemName: '' } }),
      2,
      [],
    ],
    ['terms unchecked', complete({ terms: { checked: false } }), 2, ['terms']],
    [
      'DVO checked without an amount',
      complete({ increaseDVO: { checked: true, howMuch: null } }),
      1,
      ['increaseDVO'],
    ],
  ] as const)('%s', (_name, data, category, expected) => {
    expect(serviceDataErrors(data, category)).toEqual(expected);
    expect(isServiceDataValid({ dataVersion: 3, data, productCategoryId: category })).toBe(
      expected.length === 0,
    );
  });
});

describe('treatment purpose names set by the admin', () => {
  const metadata = {
    kitManufacturers: [],
    treatmentPurposes: [
      { purpose: 2, ptBR: 'Lentes de contato', en: '', es: 'Carillas' },
      { purpose: 3, ptBR: '', en: 'Crown on a natural tooth', es: '' },
    ],
  };

  it.each([
    ['en', 'Crown on a natural tooth', 'Crown on tooth', 'Ceramic laminates', 3],
    ['es', 'Carillas', 'Carillas cerámicas', 'Corona sobre diente', 2],
  ] as const)(
    'in %s the form shows %j instead of %j, and the built-in %j where none is set',
    async (language, overridden, builtIn, kept, purpose) => {
      await applyLanguage(language);
      mockFetch(() => ok(metadata));
      const onSave = vi.fn().mockResolvedValue({});
      renderWithApp(
        <ServiceDataForm productCategoryId={2} data={null} readOnly={false} onSave={onSave} />,
      );
      const user = userEvent.setup();
      await user.click(await screen.findByRole('combobox', { name: /purpose|finalidad/i }));
      expect(await screen.findByRole('option', { name: kept, hidden: true })).toBeInTheDocument();
      expect(screen.queryByRole('option', { name: builtIn, hidden: true })).not.toBeInTheDocument();
      await user.click(screen.getByRole('option', { name: overridden, hidden: true }));
      await user.click(screen.getByRole('button', { name: /save|guardar/i }));
      expect(onSave).toHaveBeenLastCalledWith(
        expect.objectContaining({ treatmentPurpose: { purpose } }),
      );
    },
  );
});

describe('service data form', () => {
  beforeEach(() => {
    applyLanguage('en');
    mockFetch(() =>
      ok({
        kitManufacturers: [{ manufactureName: 'Neodent', systems: ['Grand Morse'] }],
        treatmentPurposes: [],
      }),
    );
  });

  it('shows the implant sections only for category 3', async () => {
    const { unmount } = renderWithApp(
      <ServiceDataForm productCategoryId={3} data={null} readOnly={false} onSave={vi.fn()} />,
    );
    expect(await screen.findByText('Jaw')).toBeInTheDocument();
    expect(screen.getByText('Teeth to extract')).toBeInTheDocument();
    expect(screen.getByText('Patient provisional')).toBeInTheDocument();
    unmount();
    renderWithApp(
      <ServiceDataForm productCategoryId={2} data={null} readOnly={false} onSave={vi.fn()} />,
    );
    expect(await screen.findByText('Orthodontic treatment')).toBeInTheDocument();
    expect(screen.queryByText('Jaw')).not.toBeInTheDocument();
    expect(screen.queryByText('Teeth to extract')).not.toBeInTheDocument();
  });

  it('highlights what is missing (saved as work in progress) and saves complete data', async () => {
    const onSave = vi.fn().mockResolvedValue({});
    renderWithApp(
      <ServiceDataForm productCategoryId={2} data={null} readOnly={false} onSave={onSave} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save service data' }));
    expect(await screen.findByText('You must accept the terms')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(3);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/still incomplete/)).toBeInTheDocument();

    for (const group of ['Orthodontic treatment', 'Gingival plastic surgery']) {
      const radios = screen.getByRole('radiogroup', { name: new RegExp(group) });
      await user.click(radios.querySelector('input[value="no"]') as HTMLElement);
    }
    await user.click(screen.getByRole('combobox', { name: /Treatment purpose/ }));
    await user.click(await screen.findByRole('option', { name: 'Crown on tooth', hidden: true }));
    await user.type(screen.getByRole('textbox', { name: /Extra information/ }), 'Smile design');
    await user.click(screen.getByRole('checkbox', { name: 'I accept the terms' }));
    await user.click(screen.getByRole('button', { name: 'Save service data' }));
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
    expect(onSave).toHaveBeenLastCalledWith(
      expect.objectContaining({
        hasOrtho: false,
        plasticGum: false,
        treatmentPurpose: { purpose: 3 },
        extra: 'Smile design',
        terms: { checked: true },
      }),
    );
  });
});
