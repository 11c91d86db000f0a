import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyDataInfo } from '@dentflow/domain';
import { useCase } from '../api/get-case';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { caseDetail, caseService } from '../test-fixtures';
import { GeneralTab } from './general-tab';

/** The General tab as the case view renders it: fed by the case query. */
function Harness() {
  const query = useCase(42);
  return query.data ? <GeneralTab detail={query.data} /> : null;
}

describe('general tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('a stale save (409 CASE_CHANGED) saves nothing, says so and reloads the stored case', async () => {
    let stored = caseDetail();
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path.startsWith('/metadata/')) return ok([]);
      if (call.path === '/case/42/set') {
        return fail(409, 'CASE_CHANGED', 'This case was changed meanwhile');
      }
      return ok(stored);
    });
    renderWithApp(<Harness />);
    const user = userEvent.setup();
    const fname = await screen.findByLabelText(/First name/);
    expect(fname).toHaveValue('Maria');
    // Meanwhile someone else renamed the patient.
    stored = caseDetail({
      modifiedAt: '2026-11-20T11:00:00.000Z',
      patient: { fname: 'Mariana', lname: 'Silva', birthDate: null, gender: null, note: null },
    });
    await user.clear(fname);
    await user.type(fname, 'Marta');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/42/set')?.body).toMatchObject({
        patient: { fname: 'Marta' },
        modifiedAt: '2026-11-20T10:00:00.000Z',
      }),
    );
    expect(await screen.findByText(/changed by someone else/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/First name/)).toHaveValue('Mariana'));
  });

  it('validates the patient with the domain rules before the round trip', async () => {
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path.startsWith('/metadata/')) return ok([]);
      return ok(caseDetail());
    });
    renderWithApp(<Harness />);
    const user = userEvent.setup();
    await user.clear(await screen.findByLabelText(/Last name/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/case/42/set')).toBe(false);
  });

  it('is read only outside broad new (no save button, no service data save)', async () => {
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path.startsWith('/metadata/')) return ok([]);
      return ok(caseDetail({ caseStatus: 'execute', can: [] }));
    });
    renderWithApp(<Harness />);
    expect(await screen.findByTestId('case-edit-lock')).toHaveTextContent(
      'The case is in progress: its data can no longer be changed here.',
    );
    expect(screen.getByLabelText(/First name/)).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save service data' })).not.toBeInTheDocument();
  });

  it('says a finished case is finished, never "in progress", in Portuguese too', async () => {
    await applyLanguage('ptBR');
    mockFetch((call) => {
      if (call.path === '/profile/get') {
        return ok(completeProfile({ dataInfo: emptyDataInfo('ptBR') }));
      }
      if (call.path.startsWith('/metadata/')) return ok([]);
      return ok(caseDetail({ caseStatus: 'finished', can: [] }));
    });
    renderWithApp(<Harness />);
    const lock = await screen.findByTestId('case-edit-lock');
    expect(lock).toHaveTextContent('O caso está concluído');
    expect(lock).not.toHaveTextContent(/andamento/);
  });

  it('shows the case currency and changes it while the server allows it', async () => {
    let stored = caseDetail({ can: ['edit', 'addService', 'changeCurrency'] });
    const { calls } = mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path.startsWith('/metadata/')) return ok([]);
      if (call.path === '/case/42/set') {
        stored = caseDetail({
          caseCurrency: 'BRL',
          modifiedAt: '2026-11-20T11:00:00.000Z',
          can: ['edit', 'addService', 'changeCurrency'],
        });
      }
      return ok(stored);
    });
    renderWithApp(<Harness />);
    const user = userEvent.setup();
    const card = await screen.findByTestId('case-currency');
    expect(card).toHaveTextContent('This case is charged in US dollar (U$).');
    const change = screen.getByRole('button', { name: 'Change currency' });
    expect(change).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Brazilian real (R$)' }));
    await user.click(change);
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/case/42/set')?.body).toEqual({
        caseCurrency: 'BRL',
        modifiedAt: '2026-11-20T10:00:00.000Z',
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('case-currency')).toHaveTextContent(
        'This case is charged in Brazilian real (R$).',
      ),
    );
    expect(await screen.findByText('Case currency changed')).toBeInTheDocument();
  });

  it('offers no currency change once the case has a transaction', async () => {
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path.startsWith('/metadata/')) return ok([]);
      return ok(caseDetail({ caseStatus: 'checkingout', can: ['edit', 'addService'] }));
    });
    renderWithApp(<Harness />);
    const card = await screen.findByTestId('case-currency');
    expect(card).toHaveTextContent('This case is charged in US dollar (U$).');
    expect(card).toHaveTextContent('the case has a transaction');
    expect(screen.queryByRole('radio', { name: 'Brazilian real (R$)' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change currency' })).toBeNull();
  });

  it('a failing check names what it misses: the unpaid services and the empty required slots', async () => {
    mockFetch((call) => {
      if (call.path === '/profile/get') return ok(completeProfile());
      if (call.path.startsWith('/metadata/')) return ok([]);
      return ok(
        caseDetail({
          caseStatus: 'checkingout',
          can: [],
          services: [
            caseService({ id: 11, productName: 'Guide planning', payment: 'paid', paid: true }),
            caseService({ id: 12, productName: 'Printed guide', payment: 'awaitingPayment' }),
            caseService({ id: 13, productName: 'Mock-up', payment: 'unpaid' }),
          ],
          checks: {
            services: true,
            patient: true,
            attachments: false,
            transactions: false,
            missingSlots: [
              { bucketName: 'exams', attachmentType: 'upperJawStl' },
              { bucketName: 'exams', attachmentType: 'dicom' },
            ],
            unpaidServiceIds: [12, 13],
          },
        }),
      );
    });
    renderWithApp(<Harness />);
    expect(await screen.findByTestId('check-unpaid')).toHaveTextContent(
      'Not paid yet: Printed guide, Mock-up',
    );
    const slots = screen.getByTestId('check-missing-slots');
    expect(slots).toHaveTextContent('Required files missing: Upper jaw STL, DICOM (tomography)');
    expect(
      within(slots).getByRole('link', { name: 'Send them in the Attachments tab' }),
    ).toHaveAttribute('href', '/?tab=attachments');
  });
});
