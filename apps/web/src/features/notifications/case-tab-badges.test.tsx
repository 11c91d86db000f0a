import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyCaseNotificationDetails, type CaseNotificationStatus } from '@dentflow/domain';
import { applyLanguage } from '../../lib/i18n';
import { mockFetch, ok } from '../../test/fetch-mock';
import { completeProfile } from '../../test/profiles';
import { renderWithApp } from '../../test/render';
import { caseTabCounts, useCaseTabBadges } from './case-tab-badges';

function Harness() {
  const [tab, setTab] = useState('chat');
  const counts = useCaseTabBadges(42, tab);
  return (
    <div>
      <p data-testid="counts">{`general=${counts.general} attachments=${counts.attachments}`}</p>
      {['general', 'attachments', 'chat'].map((name) => (
        <button key={name} type="button" onClick={() => setTab(name)}>
          {name}
        </button>
      ))}
    </div>
  );
}

const status = (counters: Record<string, number>): CaseNotificationStatus => ({
  caseId: 42,
  unseen: Object.values(counters).reduce((sum, n) => sum + n, 0),
  trigger: true,
  details: { ...emptyCaseNotificationDetails(), ...counters },
});

describe('case tab badges', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('sums the counters per tab', () => {
    expect(caseTabCounts({ event_2: 2, event_3: 5, event_7: 1, event_9: 2, event_11: 1 })).toEqual({
      general: 4,
      attachments: 2,
    });
    // The dispatch (type 24) counts in slot 8, on the general tab.
    expect(caseTabCounts({ event_8: 1 })).toEqual({ general: 1, attachments: 0 });
  });

  it('marks the case seen once when opened; labels keep what was new until the tab is opened', async () => {
    let serverStatus = status({ event_2: 2, event_9: 1, event_3: 4 });
    const { calls } = mockFetch((call) => {
      if (call.path === '/notification/getStatus/42') return ok(serverStatus);
      if (call.path === '/notification/case/42') {
        serverStatus = status({});
        return ok([]);
      }
      return ok(completeProfile());
    });
    const { queryClient } = renderWithApp(<Harness />);
    const counts = screen.getByTestId('counts');
    await waitFor(() => expect(counts).toHaveTextContent('general=1 attachments=2'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/notification/case/42')).toHaveLength(1),
    );
    expect(counts).toHaveTextContent('general=1 attachments=2');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'attachments' }));
    expect(counts).toHaveTextContent('general=1 attachments=0');
    await user.click(screen.getByRole('button', { name: 'chat' }));
    expect(counts).toHaveTextContent('general=1 attachments=0');

    // A file added during the visit: counted, and left unseen for the bell.
    serverStatus = status({ event_2: 1 });
    await act(() => queryClient.invalidateQueries({ queryKey: ['notifications'] }));
    await waitFor(() => expect(counts).toHaveTextContent('general=1 attachments=1'));
    expect(calls.filter((c) => c.path === '/notification/case/42')).toHaveLength(1);
  });

  it('asks nothing more when nothing is unseen', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/notification/getStatus/42' ? ok(status({})) : ok(completeProfile()),
    );
    const { queryClient } = renderWithApp(<Harness />);
    await waitFor(() =>
      expect(queryClient.getQueryState(['notifications', 'status', 42])?.status).toBe('success'),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByTestId('counts')).toHaveTextContent('general=0 attachments=0');
    expect(calls.some((c) => c.path === '/notification/case/42')).toBe(false);
  });

  it('opened with nothing unseen, what arrives during the visit stays unseen for the bell', async () => {
    let serverStatus = status({});
    const { calls } = mockFetch((call) =>
      call.path === '/notification/getStatus/42' ? ok(serverStatus) : ok(completeProfile()),
    );
    const { queryClient } = renderWithApp(<Harness />);
    await waitFor(() =>
      expect(queryClient.getQueryState(['notifications', 'status', 42])?.status).toBe('success'),
    );
    serverStatus = status({ event_9: 1 });
    await act(() => queryClient.invalidateQueries({ queryKey: ['notifications'] }));
    await waitFor(() =>
      expect(screen.getByTestId('counts')).toHaveTextContent('general=1 attachments=0'),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(calls.some((c) => c.path === '/notification/case/42')).toBe(false);
  });
});
