import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes } from '../../../test/render';
import { casePreview } from '../test-fixtures';
import { CasesPage } from './cases-page';

const routes = [
  { path: '/cases/:filter', element: <CasesPage /> },
  { path: '/case/:id', element: <p>case view</p> },
  { path: '/cases/create', element: <p>intake</p> },
];

const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path.startsWith('/case/list/'));

describe('case list', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows patient cards with names cut at 15 characters, status, review flag and total', async () => {
    mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({
            items: [
              casePreview({
                id: 3,
                patient: { fname: 'Maximilianoalberto', lname: 'Silva' },
                caseStatus: 'revision',
                review: true,
              }),
              casePreview({ id: 2, patient: { fname: 'Ana', lname: 'Lima' } }),
            ],
            total: 2,
            page: 0,
            pageSize: 20,
          }),
    );
    renderRoutes(routes, '/cases/new');
    expect(await screen.findByText('Maximilianoalbe… Silva')).toBeInTheDocument();
    expect(screen.getByText('Ana Lima')).toBeInTheDocument();
    expect(screen.getByText('In revision')).toBeInTheDocument();
    expect(screen.getByText('In review')).toBeInTheDocument();
    expect(screen.getByText('Cases found: 2')).toBeInTheDocument();
    // A doctor may open a new case.
    expect(screen.getByRole('link', { name: 'New case' })).toHaveAttribute('href', '/cases/create');
  });

  it.each([
    ['en', 'Cases found: 1,000+'],
    ['ptBR', 'Casos encontrados: 1.000+'],
    ['es', 'Casos encontrados: 1.000+'],
  ] as const)('shows a capped search total as "1,000+" in %s', async (language, shown) => {
    await applyLanguage(language);
    mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({
            items: [casePreview({ id: 2, patient: { fname: 'Ana', lname: 'Muller' } })],
            total: 1000,
            totalCapped: true,
            page: 0,
            pageSize: 20,
          }),
    );
    renderRoutes(routes, '/cases/new?q=muller');
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it("shows an exact total above a thousand with the reader's separator", async () => {
    await applyLanguage('ptBR');
    mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({ items: [casePreview()], total: 35340, page: 0, pageSize: 20 }),
    );
    renderRoutes(routes, '/cases/new');
    expect(await screen.findByText('Casos encontrados: 35.340')).toBeInTheDocument();
  });

  it('pages with the pager (page numbers from 0 on the API)', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      const page = Number(/\/case\/list\/new\/(\d+)/.exec(call.path)?.[1] ?? 0);
      return ok({
        items: [casePreview({ id: 100 - page, patient: { fname: `Page${page}`, lname: 'X' } })],
        total: 45,
        page,
        pageSize: 20,
      });
    });
    renderRoutes(routes, '/cases/new');
    const user = userEvent.setup();
    expect(await screen.findByText('Page0 X')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Page2 X')).toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.path).toBe('/case/list/new/2');
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('Page1 X')).toBeInTheDocument();
  });

  it('searches once typing pauses, from page 0', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({ items: [casePreview()], total: 1, page: 0, pageSize: 20 }),
    );
    renderRoutes(routes, '/cases/execute?page=3');
    const user = userEvent.setup();
    await screen.findByText('Maria Silva');
    expect(listCalls(calls).map((c) => c.path)).toEqual(['/case/list/execute/3']);
    await user.type(screen.getByRole('searchbox', { name: 'Search cases' }), 'joão');
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2), { timeout: 2000 });
    // One request for the whole word, not one per key.
    expect(listCalls(calls).at(-1)?.path).toBe(
      `/case/list/execute/0?q=${encodeURIComponent('joão')}`,
    );
  });

  it('says so when the list is empty, and when a search finds nothing', async () => {
    mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({ items: [], total: 0, page: 0, pageSize: 20 }),
    );
    const { unmount } = renderRoutes(routes, '/cases/print');
    expect(await screen.findByText('No cases here yet')).toBeInTheDocument();
    unmount();
    renderRoutes(routes, '/cases/print?q=zzz');
    expect(await screen.findByText('No case matches your search')).toBeInTheDocument();
  });

  it('shows the error with a retry', async () => {
    let failing = true;
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      return failing
        ? fail(400, 'VALIDATION_ERROR', 'Bad filter')
        : ok({ items: [casePreview()], total: 1, page: 0, pageSize: 20 });
    });
    renderRoutes(routes, '/cases/new');
    const user = userEvent.setup();
    expect(await screen.findByText('Bad filter')).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Maria Silva')).toBeInTheDocument();
  });

  it('opens the case view from a card on a phone', async () => {
    mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({ items: [casePreview({ id: 5 })], total: 1, page: 0, pageSize: 20 }),
    );
    const { router } = renderRoutes(routes, '/cases/new');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Case 5, patient Maria Silva' }));
    expect(router.state.location.pathname).toBe('/case/5');
  });

  it('hides "New case" from a planner', async () => {
    mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile({ roles: ['planner', 'public'] }))
        : ok({ items: [], total: 0, page: 0, pageSize: 20 }),
    );
    renderRoutes(routes, '/cases/new');
    await screen.findByText('No cases here yet');
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'New case' })).not.toBeInTheDocument(),
    );
  });

  it('lists cancelled cases at /cases/cancelled', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({
            items: [casePreview({ id: 9, caseStatus: 'cancelled' })],
            total: 1,
            page: 0,
            pageSize: 20,
          }),
    );
    const { router } = renderRoutes(routes, '/cases/cancelled');
    expect(await screen.findByText('Maria Silva')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/cases/cancelled');
    expect(listCalls(calls).map((c) => c.path)).toEqual(['/case/list/cancelled/0']);
  });

  it('a search can look in every list, and the list is named as the menu names it', async () => {
    applyLanguage('ptBR');
    const { calls } = mockFetch((call) =>
      call.path === '/profile/get'
        ? ok(completeProfile())
        : ok({
            items: [casePreview({ id: 9, caseStatus: 'execute' })],
            total: 1,
            page: 0,
            pageSize: 20,
          }),
    );
    renderRoutes(routes, '/cases/execute?q=ana');
    // The heading uses the menu's name of the list, the same words as the status on the card.
    expect(
      await screen.findByRole('heading', { name: 'Casos: Em planejamento' }),
    ).toBeInTheDocument();
    expect((await screen.findAllByText('Em planejamento')).length).toBeGreaterThan(0);
    expect(listCalls(calls).at(-1)?.path).toBe('/case/list/execute/0?q=ana');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Buscar em todas as listas' }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.path).toBe('/case/list/execute/0?q=ana&scope=all'),
    );
  });
});
