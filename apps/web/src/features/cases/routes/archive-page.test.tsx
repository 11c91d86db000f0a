import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { casePreview } from '../test-fixtures';
import { ArchivePage, toArchiveQuery } from './archive-page';

describe('archive', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('turns the search form into the query, leaving out empty fields', () => {
    expect(
      toArchiveQuery({
        patient: ' ana ',
        from: '2026-01-01',
        to: '',
        category: '3',
        product: '',
        currency: 'BRL',
        status: 'cancelled',
      }),
    ).toEqual({
      patient: 'ana',
      from: '2026-01-01',
      category: 3,
      currency: 'BRL',
      status: 'cancelled',
    });
  });

  it('searches by patient and un-archives after confirmation', async () => {
    let archived = true;
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path === '/products/list') return ok([]);
      if (call.path === '/case/8/unarchive') {
        archived = false;
        return ok({});
      }
      if (call.path.startsWith('/case/archive/')) {
        return ok({
          items: archived
            ? [casePreview({ id: 8, caseArchived: true, caseStatus: 'finished' })]
            : [],
          total: archived ? 1 : 0,
          page: 0,
          pageSize: 20,
        });
      }
      return ok({});
    });
    renderWithApp(<ArchivePage />);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Patient' }), 'maria');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.startsWith('/case/archive/')).at(-1)?.path).toBe(
        '/case/archive/0?patient=maria',
      ),
    );
    const row = await screen.findByTestId('archived-case');
    await user.click(within(row).getByRole('button', { name: 'Un-archive' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((c) => c.path === '/case/8/unarchive')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Un-archive' }));
    expect(await screen.findByText('Case un-archived')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/case/8/unarchive')?.method).toBe('POST');
    expect(await screen.findByText('No archived cases found')).toBeInTheDocument();
  });

  it('searches by the case status', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path === '/products/list') return ok([]);
      if (call.path.startsWith('/case/archive/')) {
        return ok({
          items: [casePreview({ id: 9, caseArchived: true, caseStatus: 'cancelled' })],
          total: 1,
          page: 0,
          pageSize: 20,
        });
      }
      return ok({});
    });
    renderWithApp(<ArchivePage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Case status' }));
    await user.click(await screen.findByRole('option', { name: 'Cancelled', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.startsWith('/case/archive/')).at(-1)?.path).toBe(
        '/case/archive/0?status=cancelled',
      ),
    );
    expect(
      within(await screen.findByTestId('archived-case')).getByText('Cancelled'),
    ).toBeInTheDocument();
  });

  it('moves back to the last page when un-archiving empties the last one', async () => {
    // 21 archived cases: page 0 has 20, page 1 the last one, until it is un-archived.
    let total = 21;
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path === '/products/list') return ok([]);
      if (call.path === '/case/21/unarchive') {
        total = 20;
        return ok({});
      }
      const page = /^\/case\/archive\/(\d+)/.exec(call.path)?.[1];
      if (page !== undefined) {
        const first = Number(page) * 20;
        const ids = Array.from(
          { length: Math.max(0, Math.min(20, total - first)) },
          (_, n) => first + n + 1,
        );
        return ok({
          items: ids.map((id) => casePreview({ id, caseArchived: true, caseStatus: 'finished' })),
          total,
          page: Number(page),
          pageSize: 20,
        });
      }
      return ok({});
    });
    renderWithApp(<ArchivePage />);
    const user = userEvent.setup();
    expect(await screen.findAllByTestId('archived-case')).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    const last = await screen.findByTestId('archived-case');
    await waitFor(() => expect(screen.getAllByTestId('archived-case')).toHaveLength(1));
    await user.click(within(last).getByRole('button', { name: 'Un-archive' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Un-archive' }),
    );
    await waitFor(() => expect(screen.getAllByTestId('archived-case')).toHaveLength(20));
    expect(screen.queryByText('No archived cases found')).not.toBeInTheDocument();
  });
});
