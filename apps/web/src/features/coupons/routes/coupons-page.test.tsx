import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminCoupon, CouponForm } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { CouponsPage } from './coupons-page';

const routes = [
  { path: '/coupoms', element: <CouponsPage /> },
  { path: '/error/not-authorized', element: <p>not authorized</p> },
];

const adminProfile = () => completeProfile({ roles: ['admin', 'public'] });

function coupon(overrides: Partial<AdminCoupon> = {}): AdminCoupon {
  return {
    id: 1,
    name: 'WELCOME10',
    bind2User: null,
    bind2Product: null,
    bind2Category: null,
    maxUsage: 10,
    used: 3,
    coupomType: 1,
    value: 10,
    oncePerUser: false,
    applyOnManufactureService: false,
    active: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    expireAt: null,
    usersCount: 2,
    ...overrides,
  };
}

const PRODUCTS = [
  { id: 5, code: 'PLAN-GUIDE', name: 'Surgical guide planning' },
  { id: 6, code: 'MFG-GUIDE', name: 'Surgical guide' },
];
const CATEGORIES = [
  {
    id: 3,
    name: { ptBR: 'Cirurgia guiada', en: 'Guided implant surgery', es: 'Cirugía guiada' },
    active: true,
    modifiedAt: '2026-01-01T00:00:00.000Z',
  },
];

interface FakeApi {
  items?: AdminCoupon[];
  profile?: ReturnType<typeof completeProfile>;
  onSave?: (call: RecordedCall) => Response;
}

/** The coupon admin API as the page calls it; saves answer what was sent unless told otherwise. */
function fakeApi({ items = [coupon()], profile = adminProfile(), onSave }: FakeApi = {}) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(profile);
    if (call.path === '/products/list') return ok(PRODUCTS);
    if (call.path === '/products/category/list') return ok(CATEGORIES);
    if (call.path.startsWith('/products/coupom/query/')) {
      const page = Number(/\/query\/\w+\/(\d+)/.exec(call.path)?.[1] ?? 0);
      return ok({
        items: items.slice(page * 20, page * 20 + 20),
        total: items.length,
        page,
        pageSize: 20,
      });
    }
    if (call.path.startsWith('/products/coupom/set/')) {
      if (onSave) return onSave(call);
      const body = call.body as CouponForm;
      return ok(coupon({ ...body, id: 99, name: body.name.toUpperCase(), used: 0 }));
    }
    if (call.path.startsWith('/products/coupom/delete/')) {
      return ok({ id: Number(call.path.split('/').pop()) });
    }
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

const saves = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path.startsWith('/products/coupom/set/'));
const queries = (calls: RecordedCall[]) =>
  calls.filter((c) => c.path.startsWith('/products/coupom/query/'));

async function openNewCouponForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'New coupon' }));
  return screen.findByRole('dialog', { name: 'New coupon' });
}

async function chooseType(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  type: string,
) {
  await user.click(within(dialog).getByRole('combobox', { name: /^Type/ }));
  await user.click(await screen.findByRole('option', { name: type, hidden: true }));
}

describe('coupon administration', { timeout: 60_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sends a user without the admin role to the not-authorized page, asking nothing', async () => {
    const { calls } = fakeApi({ profile: completeProfile() });
    renderRoutes(routes, '/coupoms');
    expect(await screen.findByText('not authorized')).toBeInTheDocument();
    expect(queries(calls)).toEqual([]);
  });

  it('lists coupons with type, value, bindings, usage, expiry and status', async () => {
    fakeApi({
      items: [
        coupon(),
        coupon({ id: 2, name: 'FIXED25', coupomType: 2, value: 2500, maxUsage: null, used: 0 }),
        coupon({
          id: 3,
          name: 'GUIDE2',
          coupomType: 3,
          value: 2,
          bind2Product: 5,
          bind2Category: 3,
          bind2User: 12,
          active: false,
          expireAt: '2020-01-31T12:00:00.000Z',
        }),
        // Switched on but past its expiry: 'Expired' alone, never 'Active' beside it.
        coupon({ id: 4, name: 'OLDBUTON', active: true, expireAt: '2021-06-30T12:00:00.000Z' }),
      ],
    });
    renderRoutes(routes, '/coupoms');
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(5);
    expect(within(rows[1]!).getByText('Percent')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('10%')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('3 / 10')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Users: 2')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Active')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('R$ 25,00')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('0 / ∞')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('2 ×')).toBeInTheDocument();
    expect(
      await within(rows[3]!).findByText('Product: Surgical guide planning (PLAN-GUIDE)'),
    ).toBeInTheDocument();
    expect(
      await within(rows[3]!).findByText('Category: Guided implant surgery'),
    ).toBeInTheDocument();
    expect(within(rows[3]!).getByText('User #12')).toBeInTheDocument();
    expect(within(rows[3]!).queryByText('Inactive')).toBeNull();
    expect(within(rows[3]!).getByText('Expired')).toBeInTheDocument();
    expect(within(rows[4]!).getByText('Expired')).toBeInTheDocument();
    expect(within(rows[4]!).queryByText('Active')).toBeNull();
    expect(screen.getByText('Coupons: 4')).toBeInTheDocument();
  });

  it('filters with the segmented control and searches the code once typing pauses', async () => {
    const { calls } = fakeApi({ items: [] });
    renderRoutes(routes, '/coupoms');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('No coupons here')).toBeInTheDocument();
    expect(queries(calls).at(-1)?.path).toBe('/products/coupom/query/all/0');
    await user.click(screen.getByRole('radio', { name: 'Expired' }));
    await waitFor(() =>
      expect(queries(calls).at(-1)?.path).toBe('/products/coupom/query/expired/0'),
    );
    const before = queries(calls).length;
    await user.type(screen.getByRole('searchbox', { name: 'Search coupons' }), 'welc');
    await waitFor(() =>
      expect(queries(calls).at(-1)?.path).toBe('/products/coupom/query/expired/0?q=welc'),
    );
    // One request for the whole word, not one per key.
    expect(queries(calls)).toHaveLength(before + 1);
    expect(await screen.findByText('No coupon matches your search')).toBeInTheDocument();
  });

  it('moves from a page past the end to the last page', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/coupoms?page=4');
    expect(await screen.findByText('WELCOME10')).toBeInTheDocument();
    expect(queries(calls).map((c) => c.path)).toEqual([
      '/products/coupom/query/all/4',
      '/products/coupom/query/all/0',
    ]);
  });

  it('checks the value by type: a percent at most 100, a fixed amount typed as money', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/coupoms');
    const user = userEvent.setup({ delay: null });
    const dialog = await openNewCouponForm(user);
    await user.type(within(dialog).getByRole('textbox', { name: /^Code/ }), 'spring-24');
    await user.type(within(dialog).getByRole('textbox', { name: /^Discount \(%\)/ }), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    expect(await within(dialog).findByText('Too long')).toBeInTheDocument();
    expect(saves(calls)).toEqual([]);

    // The same 150 is a valid amount for a fixed coupon; money is read in the BRL format.
    await chooseType(user, dialog, 'Fixed amount');
    const amount = within(dialog).getByRole('textbox', { name: /^Amount/ });
    await user.clear(amount);
    await user.type(amount, '12,345');
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    expect(await within(dialog).findByText('Invalid value')).toBeInTheDocument();
    expect(saves(calls)).toEqual([]);

    await user.clear(amount);
    await user.type(amount, '1.234,56');
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]).toMatchObject({
      path: '/products/coupom/set/0',
      body: {
        name: 'spring-24',
        coupomType: 2,
        value: 123_456,
        bind2User: null,
        bind2Product: null,
        bind2Category: null,
        maxUsage: null,
        active: true,
        expireAt: null,
      },
    });
    expect(await screen.findByText('Coupon SPRING-24 saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks a unit coupon for its product, then sends the bindings and the expiry', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/coupoms');
    const user = userEvent.setup({ delay: null });
    const dialog = await openNewCouponForm(user);
    await user.type(within(dialog).getByRole('textbox', { name: /^Code/ }), 'GUIDE2');
    await chooseType(user, dialog, 'Units of a product');
    await user.type(within(dialog).getByRole('textbox', { name: /^Units/ }), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    const product = within(dialog).getByRole('combobox', { name: /^Product/ });
    await waitFor(() => expect(product).toHaveAttribute('aria-invalid', 'true'));
    expect(product).toHaveAccessibleDescription(expect.stringContaining('This field is required'));
    expect(saves(calls)).toEqual([]);

    await user.click(product);
    await user.click(await screen.findByRole('option', { name: /MFG-GUIDE/, hidden: true }));
    await user.type(within(dialog).getByRole('textbox', { name: /^User ID/ }), '12');
    await user.type(within(dialog).getByRole('textbox', { name: /^Maximum uses/ }), '5');
    const expiry = within(dialog).getByLabelText(/^Last day/);
    await user.type(expiry, '06/30/2030');
    await user.click(within(dialog).getByRole('switch', { name: 'Once per user' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    const body = saves(calls)[0]!.body as CouponForm;
    expect(body).toMatchObject({
      name: 'GUIDE2',
      coupomType: 3,
      value: 2,
      bind2Product: 6,
      bind2User: 12,
      maxUsage: 5,
      oncePerUser: true,
    });
    // The whole last day counts, in the admin's time zone.
    const expireAt = new Date(body.expireAt!);
    expect([expireAt.getFullYear(), expireAt.getMonth(), expireAt.getDate()]).toEqual([
      2030, 5, 30,
    ]);
    expect([expireAt.getHours(), expireAt.getMinutes()]).toEqual([23, 59]);
  });

  it('shows the server’s field errors on the fields', async () => {
    fakeApi({
      onSave: () =>
        fail(409, 'CODE_TAKEN', 'This code is already in use', {
          name: 'This code is already in use',
        }),
    });
    renderRoutes(routes, '/coupoms');
    const user = userEvent.setup({ delay: null });
    const dialog = await openNewCouponForm(user);
    const code = within(dialog).getByRole('textbox', { name: /^Code/ });
    await user.type(code, 'welcome10');
    await user.type(within(dialog).getByRole('textbox', { name: /^Discount/ }), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(
      expect.stringContaining('This code is already in use'),
    );
    // The dialog stays open with what was typed.
    expect(code).toHaveValue('welcome10');
  });

  it('edits a fixed coupon showing its amount in the money format', async () => {
    const { calls } = fakeApi({
      items: [coupon({ id: 7, name: 'FIXED25', coupomType: 2, value: 250_050 })],
    });
    renderRoutes(routes, '/coupoms');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit coupon FIXED25' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit coupon' });
    expect(within(dialog).getByRole('textbox', { name: /^Amount/ })).toHaveValue('2.500,50');
    await user.click(within(dialog).getByRole('button', { name: 'Save coupon' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]).toMatchObject({
      path: '/products/coupom/set/7',
      body: { name: 'FIXED25', coupomType: 2, value: 250_050, maxUsage: 10 },
    });
  });

  it('deletes only after the confirmation', async () => {
    const { calls } = fakeApi();
    renderRoutes(routes, '/coupoms');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Delete coupon WELCOME10' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete coupon' });
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete coupon WELCOME10' }));
    const again = await screen.findByRole('dialog', { name: 'Delete coupon' });
    await user.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/products/coupom/delete/1',
      ]),
    );
    expect(await screen.findByText('Coupon WELCOME10 deleted.')).toBeInTheDocument();
  });
});
