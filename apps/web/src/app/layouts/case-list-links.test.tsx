import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { CASE_LIST_FILTERS, type CaseCounts } from '@dentflow/domain';
import { applyLanguage } from '../../lib/i18n';
import { mockFetch, ok } from '../../test/fetch-mock';
import { renderWithApp } from '../../test/render';
import { CaseListLinks } from './case-list-links';

const countsWith = (cancelled: number): CaseCounts => ({
  ...(Object.fromEntries(CASE_LIST_FILTERS.map((filter) => [filter, 0])) as CaseCounts),
  new: 3,
  cancelled,
});

function renderLinks(counts: CaseCounts) {
  mockFetch((call) => (call.path === '/case/counts' ? ok(counts) : ok({})));
  renderWithApp(<CaseListLinks onNavigate={() => {}} />);
}

describe('sidebar case lists', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the cancelled list with its count to someone who has cancelled cases', async () => {
    renderLinks(countsWith(2));
    const link = await screen.findByRole('link', { name: /Cancelled/ });
    expect(link).toHaveAttribute('href', '/cases/cancelled');
    expect(await screen.findByLabelText('2 cases')).toBeInTheDocument();
  });

  it('hides it from someone who has none, and keeps the other lists', async () => {
    renderLinks(countsWith(0));
    expect(await screen.findByLabelText('3 cases')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /New/ })).toHaveAttribute('href', '/cases/new');
    expect(screen.getByRole('link', { name: /Finished/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Cancelled/ })).not.toBeInTheDocument();
  });
});
