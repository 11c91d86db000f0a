import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TreatmentPurposesSettings } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { SettingsPage } from '../routes/settings-page';

const routes = [{ path: '/settings/:section?', element: <SettingsPage /> }];
const admin = completeProfile({ roles: ['admin', 'public'] });

const texts = (purpose: number, given: Partial<Record<'ptBR' | 'en' | 'es', string>> = {}) => ({
  purpose,
  ptBR: '',
  en: '',
  es: '',
  ...given,
});
const stored = (): TreatmentPurposesSettings => ({
  treatmentPurposes: [1, 2, 3, 4, 5, 6, 7].map((purpose) =>
    purpose === 5 ? texts(5, { en: 'All-on-4' }) : texts(purpose),
  ),
});

/** The settings API of the Service metadata page; POST /settings/treatmentPurposes by `onSave`. */
function fakeApi(onSave: (body: TreatmentPurposesSettings) => Response) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(admin);
    if (call.path === '/settings/serviceMetadata') return ok({ kitManufacturers: [] });
    if (call.path === '/settings/treatmentPurposes') {
      return call.method === 'POST' ? onSave(call.body as TreatmentPurposesSettings) : ok(stored());
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const input = (purpose: string, language: string) =>
  screen.findByRole('textbox', { name: `${purpose} in ${language}` });

describe('settings › service metadata › treatment purposes', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('edits the names per language and saves every purpose', async () => {
    const { calls } = fakeApi((body) => ok(body));
    renderRoutes(routes, '/settings/service-metadata');
    const user = userEvent.setup();

    expect(await input('Protocol (full-arch)', 'English')).toHaveValue('All-on-4');
    await user.type(await input('Ceramic laminates', 'Portuguese (Brazil)'), 'Lentes');
    await user.type(await input('Crown on tooth', 'Spanish'), 'Corona');
    await user.clear(await input('Protocol (full-arch)', 'English'));
    await user.click(screen.getByRole('button', { name: 'Save purpose names' }));

    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    const [post] = calls.filter((c) => c.method === 'POST');
    expect(post!.path).toBe('/settings/treatmentPurposes');
    expect(post!.body).toEqual({
      treatmentPurposes: [
        texts(1),
        texts(2, { ptBR: 'Lentes' }),
        texts(3, { es: 'Corona' }),
        texts(4),
        texts(5),
        texts(6),
        texts(7),
      ],
    });
    expect(await screen.findByText('Treatment purpose names saved.')).toBeInTheDocument();
  });

  it('shows the server’s refusal under the name it concerns', async () => {
    fakeApi(() =>
      fail(400, 'VALIDATION_ERROR', 'Validation error, check required fields', {
        'treatmentPurposes.1.es': 'Contains characters that are not allowed',
      }),
    );
    renderRoutes(routes, '/settings/service-metadata');
    const user = userEvent.setup();

    await user.type(await input('Ceramic laminates', 'Spanish'), 'Carillas');
    await user.click(screen.getByRole('button', { name: 'Save purpose names' }));

    const field = await input('Ceramic laminates', 'Spanish');
    await waitFor(() => expect(field).toHaveAccessibleDescription(/not allowed/));
  });
});
