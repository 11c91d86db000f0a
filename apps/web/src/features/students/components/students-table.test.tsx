import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { useParams, useSearchParams } from 'react-router';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderRoutes } from '../../../test/render';
import type { StudentCase, StudentCasesPage } from '@dentflow/domain';
import type { Student } from '../api/students-api';
import { StudentsTable } from './students-table';

const carla: Student = {
  id: 5,
  displayName: 'Carla Dias',
  email: 'carla@x.example',
  casesCount: 2,
};
const bruno: Student = {
  id: 6,
  displayName: 'Bruno Lima',
  email: 'bruno@x.example',
  casesCount: 0,
};

const studentCase = (overrides: Partial<StudentCase> = {}): StudentCase => ({
  id: 12,
  patient: { fname: 'Ana', lname: 'Souza' },
  caseStatus: 'execute',
  caseArchived: false,
  modifiedAt: '2026-03-02T10:00:00.000Z',
  services: [{ id: 40, productName: 'Surgical guide' }],
  ...overrides,
});

const casePage = (items: StudentCase[], total = items.length, page = 0): StudentCasesPage => ({
  items,
  total,
  page,
  pageSize: 20,
});

/** The case view, reduced to what the links must carry: the case id and the chosen tab. */
function CaseViewStub() {
  const { id } = useParams();
  const [params] = useSearchParams();
  return <p>{`case view ${id} tab ${params.get('tab') ?? 'general'}`}</p>;
}

function fakeApi(pages: Record<string, StudentCasesPage>) {
  return mockFetch((call) => {
    const page = pages[call.path];
    return page ? ok(page) : fail(404, 'NOT_FOUND', 'Not found');
  });
}

const renderTable = () =>
  renderRoutes(
    [
      { path: '/students', element: <StudentsTable students={[carla, bruno]} /> },
      { path: '/case/:id', element: <CaseViewStub /> },
    ],
    '/students',
  );

describe('students table', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it("expands a student's row to list their cases from their own URL, with working links", async () => {
    const { calls } = fakeApi({
      '/students/5/cases?page=0': casePage([
        studentCase(),
        studentCase({
          id: 9,
          patient: { fname: 'Rui', lname: 'Melo' },
          caseStatus: 'finished',
          caseArchived: true,
          services: [],
        }),
      ]),
    });
    const user = userEvent.setup();
    const { router } = renderTable();

    const toggle = screen.getByRole('button', { name: 'Cases of Carla Dias' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(calls).toEqual([]);
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    const table = await screen.findByRole('table', { name: 'Cases of Carla Dias' });
    expect(toggle).toHaveAttribute('aria-controls', table.closest('tr[id]')!.id);
    expect(calls.map((call) => call.path)).toEqual(['/students/5/cases?page=0']);
    const rows = within(table).getAllByTestId('student-case');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText(/Ana Souza/)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Surgical guide')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('In planning')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/Rui Melo/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Archived')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('link', { name: 'Open case' })).toHaveAttribute(
      'href',
      '/case/12',
    );
    expect(within(rows[1]!).getByRole('link', { name: 'Chat' })).toHaveAttribute(
      'href',
      '/case/9?tab=chat',
    );

    await user.click(within(rows[0]!).getByRole('link', { name: 'Chat' }));
    expect(await screen.findByText('case view 12 tab chat')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/case/12');
  });

  it('opens and closes with the keyboard and shows the empty state for a student without cases', async () => {
    const { calls } = fakeApi({ '/students/6/cases?page=0': casePage([]) });
    const user = userEvent.setup();
    renderTable();

    const toggle = screen.getByRole('button', { name: 'Cases of Bruno Lima' });
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(calls.map((call) => call.path)).toEqual(['/students/6/cases?page=0']);
    expect(screen.getByRole('button', { name: 'Cases of Carla Dias' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );

    await user.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('No cases yet')).not.toBeInTheDocument();
  });

  it('pages through more than 20 cases', async () => {
    const first = Array.from({ length: 20 }, (_, n) => studentCase({ id: 100 - n }));
    const { calls } = fakeApi({
      '/students/5/cases?page=0': casePage(first, 21),
      '/students/5/cases?page=1': casePage([studentCase({ id: 3 })], 21, 1),
    });
    const user = userEvent.setup();
    renderTable();

    await user.click(screen.getByRole('button', { name: 'Cases of Carla Dias' }));
    const table = await screen.findByRole('table', { name: 'Cases of Carla Dias' });
    expect(within(table).getAllByTestId('student-case')).toHaveLength(20);
    expect(screen.getByText(/Cases: 21/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await within(table).findByRole('link', { name: 'Open case' })).toHaveAttribute(
      'href',
      '/case/3',
    );
    expect(calls.map((call) => call.path)).toEqual([
      '/students/5/cases?page=0',
      '/students/5/cases?page=1',
    ]);
  });

  it('shows the error with a retry', async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderTable();
    await user.click(screen.getByRole('button', { name: 'Cases of Carla Dias' }));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
