import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Category } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { category } from '../../products/test-fixtures';
import { SettingsPage } from './settings-page';

const routes = [
  { path: '/settings/:section?', element: <SettingsPage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const admin = completeProfile({ roles: ['admin', 'public'] });
const orthodontics = category({
  id: 5,
  name: { ptBR: 'Ortodontia', en: 'Orthodontics', es: 'Ortodoncia' },
  active: false,
});

type Handler = (call: RecordedCall) => Response | undefined;

/** The category API as the contract describes it: saves are kept and answered back. */
function fakeApi(extra?: Handler) {
  let categories: Category[] = [category(), orthodontics];
  return mockFetch((call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.path === '/profile/get') return ok(admin);
    if (call.path === '/products/category/list') return ok(categories);
    const get = /^\/products\/category\/(\d+)\/get$/.exec(call.path);
    if (get) return ok(categories.find((c) => c.id === Number(get[1])));
    const set = /^\/products\/category\/set\/(\d+)$/.exec(call.path);
    if (set && call.method === 'POST') {
      const id = Number(set[1]) || 9;
      const saved = { ...(call.body as Omit<Category, 'id' | 'modifiedAt'>), id, modifiedAt: 'x' };
      categories = [...categories.filter((c) => c.id !== id), saved];
      return ok(saved);
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const setCalls = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path.startsWith('/products/category/set/'));

describe('settings', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('lists the categories with their three names and active flag under the section navigation', async () => {
    fakeApi();
    renderRoutes(routes, '/settings');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    for (const section of [
      'Product categories',
      'Payments',
      'Announcements',
      'Emails',
      'Service metadata',
      'Manufacturer',
      'Shipment',
    ]) {
      expect(within(nav).getByRole('link', { name: section })).toBeInTheDocument();
    }
    expect(within(nav).getByRole('link', { name: 'Product categories' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const row = await screen.findByTestId('category-row-3');
    expect(within(row).getByText('Cirurgia guiada')).toBeInTheDocument();
    expect(within(row).getByText('Guided surgery')).toBeInTheDocument();
    expect(within(row).getByText('Cirugía guiada')).toBeInTheDocument();
    expect(
      within(row).getByRole('switch', { name: 'Category Guided surgery active' }),
    ).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Category Orthodontics active' })).not.toBeChecked();
  });

  it('opens another section from the navigation, reading only that section', async () => {
    const { calls } = fakeApi((call) =>
      call.path === '/settings/shipping' ? ok({ options: [], motoboyZipRanges: [] }) : undefined,
    );
    renderRoutes(routes, '/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Shipment' }));
    expect(await screen.findByRole('table', { name: 'Shipping options' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Shipment' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByText('This area is being prepared')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/products/category/list')).toHaveLength(1);
    expect(calls.filter((c) => c.path.startsWith('/settings/'))).toEqual([
      expect.objectContaining({ method: 'GET', path: '/settings/shipping' }),
    ]);
  });

  it('edits a category and sends its three names', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings/categories');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit category Guided surgery' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit category Guided surgery' });
    const english = await within(dialog).findByRole('textbox', { name: /Name \(English\)/ });
    expect(english).toHaveValue('Guided surgery');
    await user.clear(english);
    await user.type(english, 'Guided implant surgery');
    const spanish = within(dialog).getByRole('textbox', { name: /Name \(Spanish\)/ });
    await user.clear(spanish);
    await user.type(spanish, 'Cirugía de implantes');
    await user.click(within(dialog).getByRole('button', { name: 'Save category' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    expect(setCalls(calls)[0]).toMatchObject({
      path: '/products/category/set/3',
      body: {
        name: {
          ptBR: 'Cirurgia guiada',
          en: 'Guided implant surgery',
          es: 'Cirugía de implantes',
        },
        active: true,
      },
    });
    expect(await screen.findByText('Category saved.')).toBeInTheDocument();
    expect(await screen.findByText('Guided implant surgery')).toBeInTheDocument();
  });

  it('creates a category only with all three names, and shows server field errors', async () => {
    const { calls } = fakeApi((call) =>
      call.path === '/products/category/set/0'
        ? fail(400, 'VALIDATION_ERROR', 'Validation error', { 'name.es': 'Too long' })
        : undefined,
    );
    renderRoutes(routes, '/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New category' }));
    const dialog = await screen.findByRole('dialog', { name: 'New category' });
    await user.type(
      within(dialog).getByRole('textbox', { name: /Name \(Portuguese\)/ }),
      'Próteses',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save category' }));
    expect(
      within(dialog).getByRole('textbox', { name: /Name \(English\)/ }),
    ).toHaveAccessibleDescription('This field is required');
    expect(setCalls(calls)).toHaveLength(0);

    await user.type(
      within(dialog).getByRole('textbox', { name: /Name \(English\)/ }),
      'Prostheses',
    );
    await user.type(within(dialog).getByRole('textbox', { name: /Name \(Spanish\)/ }), 'Prótesis');
    await user.click(within(dialog).getByRole('button', { name: 'Save category' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    expect(setCalls(calls)[0]!.body).toEqual({
      name: { ptBR: 'Próteses', en: 'Prostheses', es: 'Prótesis' },
      active: true,
    });
    await waitFor(() =>
      expect(
        within(dialog).getByRole('textbox', { name: /Name \(Spanish\)/ }),
      ).toHaveAccessibleDescription('Too long'),
    );
  });

  it('switches a category on and off from the table', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Category Orthodontics active' }));
    await waitFor(() => expect(setCalls(calls)).toHaveLength(1));
    expect(setCalls(calls)[0]).toMatchObject({
      path: '/products/category/set/5',
      body: { name: orthodontics.name, active: true },
    });
    expect(await screen.findByText('Category Orthodontics activated.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Category Orthodontics active' })).toBeChecked(),
    );
  });

  it('sends a user who is not an admin to the not-authorized page', async () => {
    const { calls } = mockFetch(() => ok(completeProfile({ roles: ['supervisor', 'public'] })));
    renderRoutes(routes, '/settings');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/products'))).toBe(false);
  });
});
