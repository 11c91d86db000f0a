import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CaseDetail, CaseMember, PartnerLink } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { caseDetail } from '../test-fixtures';
import { UsersTab } from './users-tab';

const link = (id: number, displayName: string): PartnerLink => ({
  id: 100 + id,
  clinic: { id: 7, displayName: 'Ana Souza', email: 'ana@example.com' },
  partner: { id, displayName, email: `${displayName.toLowerCase()}@lab.test` },
  createdAt: '2026-01-01T00:00:00.000Z',
});
const LINKS = [link(20, 'RadioLab'), link(21, 'ScanCenter')];

const member = (userId: number, displayName: string, roles: string[]): CaseMember => ({
  userId,
  displayName,
  roles,
  triggerNotification: true,
});
/** RadioLab (a linked partner) is already on the case, next to a doctor. */
const MEMBERS = [member(20, 'RadioLab', ['partner']), member(30, 'Dr. Lima', ['doctor'])];

function fakeApi(detail: CaseDetail, links: PartnerLink[] = LINKS) {
  return mockFetch((call) => {
    if (call.path === '/profile/get') return ok(completeProfile({ roles: ['clinic', 'public'] }));
    if (call.path === '/partners') return ok(links);
    if (call.path.startsWith('/case/42/users')) return ok(detail);
    if (call.path === '/case/42/get') return ok(detail);
    return fail(404, 'NOT_FOUND', 'Not found');
  });
}

describe('users tab: the clinic’s partners', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('offers only linked partners not on the case and posts the chosen one with the notify choice', async () => {
    const detail = caseDetail({ can: ['addPartner'], users: MEMBERS });
    const { calls } = fakeApi(detail);
    renderWithApp(<UsersTab detail={detail} />);
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'Partners' })).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Partner' }));
    expect(
      await screen.findByRole('option', { name: /ScanCenter/, hidden: true }),
    ).toBeInTheDocument();
    // RadioLab is already a member: not offered again.
    expect(screen.queryByRole('option', { name: /RadioLab/, hidden: true })).toBeNull();
    await user.click(screen.getByRole('option', { name: /ScanCenter/, hidden: true }));

    const notify = screen.getByRole('checkbox', { name: 'Notify this partner of case events' });
    expect(notify).toBeChecked();
    await user.click(notify);
    await user.click(add);
    await waitFor(() =>
      expect(
        calls.filter((c) => c.method === 'POST' && c.path === '/case/42/users').map((c) => c.body),
      ).toEqual([{ userId: 21, triggerNotification: false }]),
    );
    expect(await screen.findByText('Partner added')).toBeInTheDocument();
  });

  it('lets the clinic remove partner members only, after confirming', async () => {
    const detail = caseDetail({ can: ['addPartner'], users: MEMBERS });
    const { calls } = fakeApi(detail);
    renderWithApp(<UsersTab detail={detail} />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Remove RadioLab' }));
    expect(screen.queryByRole('button', { name: 'Remove Dr. Lima' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/case/42/users/20',
      ]),
    );
  });

  it('says so when no partner is linked to the clinic', async () => {
    const detail = caseDetail({ can: ['addPartner'] });
    fakeApi(detail, []);
    renderWithApp(<UsersTab detail={detail} />);
    expect(
      await screen.findByText('No partners linked to your clinic yet — ask the administrator.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
  });

  it('shows no partner card and no remove icon without addPartner, and never asks for links', async () => {
    const detail = caseDetail({ can: ['edit', 'addService'], users: MEMBERS });
    const { calls } = fakeApi(detail);
    renderWithApp(<UsersTab detail={detail} />);
    expect(await screen.findByText('RadioLab')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === '/profile/get')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Partners' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/partners')).toBe(false);
  });
});

describe('users tab: staff manage the members', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  const FOUND = [
    {
      id: 40,
      displayName: 'Paula Printer',
      nickName: 'paula',
      email: 'paula@lab.test',
      roles: ['printer'],
    },
    {
      id: 30,
      displayName: 'Dr. Lima',
      nickName: 'lima',
      email: 'lima@lab.test',
      roles: ['doctor'],
    },
  ];
  function supervisorApi(detail: CaseDetail) {
    return mockFetch((call) => {
      if (call.path === '/profile/get') {
        return ok(completeProfile({ id: 2, roles: ['supervisor', 'public'] }));
      }
      if (call.path.startsWith('/users/query_user/name/')) return ok(FOUND);
      if (call.path === '/users/planners') return ok([]);
      if (call.path.startsWith('/case/42/users')) return ok(detail);
      if (call.path === '/case/42/get') return ok(detail);
      return fail(404, 'NOT_FOUND', 'Not found');
    });
  }
  const posts = (calls: { method: string; path: string; body?: unknown }[]) =>
    calls.filter((c) => c.method === 'POST' && c.path === '/case/42/users').map((c) => c.body);

  it('a supervisor finds any user, adds them with the notify choice, switches and removes', async () => {
    const detail = caseDetail({ users: MEMBERS });
    const { calls } = supervisorApi(detail);
    renderWithApp(<UsersTab detail={detail} />);
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'Add a member' })).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add member' });
    expect(add).toBeDisabled();
    await user.type(screen.getByRole('combobox', { name: 'User' }), 'pa');
    // Dr. Lima is on the case already: only Paula is offered.
    const option = await screen.findByRole(
      'option',
      { name: /Paula Printer .* Printer/, hidden: true },
      { timeout: 5_000 },
    );
    expect(screen.queryByRole('option', { name: /Dr\. Lima/, hidden: true })).toBeNull();
    await user.click(option);
    await user.click(screen.getByRole('checkbox', { name: 'Notify this user of case events' }));
    await user.click(add);
    await waitFor(() => expect(posts(calls)).toEqual([{ userId: 40, triggerNotification: false }]));
    expect(await screen.findByText('Member added')).toBeInTheDocument();

    // Every member's notifications switch, by adding them again with the new choice.
    const lima = screen.getByRole('switch', { name: 'Notify Dr. Lima of case events' });
    expect(lima).toBeChecked();
    await user.click(lima);
    await waitFor(() =>
      expect(posts(calls)).toContainEqual({ userId: 30, triggerNotification: false }),
    );
    expect(
      await screen.findByText('Dr. Lima will no longer be notified of case events.'),
    ).toBeInTheDocument();

    // Removing any member asks first.
    await user.click(screen.getByRole('button', { name: 'Remove Dr. Lima' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/case/42/users/30',
      ]),
    );
  });

  it('a doctor owning the case gets no member controls', async () => {
    const detail = caseDetail({ users: MEMBERS });
    mockFetch((call) =>
      call.path === '/profile/get' ? ok(completeProfile()) : fail(404, 'NOT_FOUND', 'Not found'),
    );
    renderWithApp(<UsersTab detail={detail} />);
    expect(await screen.findByText('Dr. Lima')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Add a member' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });
});
