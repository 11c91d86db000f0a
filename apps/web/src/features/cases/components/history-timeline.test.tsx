import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CaseEvent } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { HistoryTimeline } from './history-timeline';

const event = (overrides: Partial<CaseEvent>): CaseEvent => ({
  id: 1,
  caseId: 42,
  at: '2026-11-21T10:00:00.000Z',
  actor: { id: 2, displayName: 'Sofia Supervisor' },
  action: 'created',
  fromStatus: null,
  toStatus: null,
  detail: {},
  ...overrides,
});

describe('history timeline', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('links an approval to its certificate, which the browser downloads', async () => {
    const code = 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01';
    const { calls } = mockFetch((call) =>
      call.path === '/approval/4/certificate'
        ? new Response('%PDF-1.7', {
            status: 200,
            headers: { 'content-disposition': 'attachment; filename="approval-42-4.pdf"' },
          })
        : ok([
            event({
              action: 'approve',
              fromStatus: 'approve',
              toStatus: 'finishing',
              detail: { text: 'Approved', approvalId: 4, certificateCode: code },
            }),
          ]),
    );
    // jsdom has no object URLs: these stand in for the browser's (restored below).
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:certificate');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    renderWithApp(<HistoryTimeline caseId={42} />);
    const link = await screen.findByTestId('history-certificate');
    expect(link).toHaveTextContent(`Approval certificate ${code}`);
    await userEvent.click(link);
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/approval/4/certificate')).toBe(true),
    );
    await waitFor(() => expect(saved).toEqual(['approval-42-4.pdf']));
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });

  it('shows a validation without payment with its reason and, when present, the unpaid amount', async () => {
    mockFetch(() =>
      ok([
        event({
          id: 1,
          action: 'validate',
          fromStatus: 'checkingout',
          toStatus: 'execute',
          detail: {
            paymentOverride: {
              reason: 'Trusted clinic, billed monthly',
              serviceIds: [11],
              unpaidAmount: 45_000,
              currency: 'BRL',
            },
          },
        }),
        // As a viewer who does not see money reads it: no amount.
        event({
          id: 2,
          action: 'validate',
          fromStatus: 'checkingout',
          toStatus: 'execute',
          detail: { paymentOverride: { reason: 'Second case of the day' } },
        }),
      ]),
    );
    renderWithApp(<HistoryTimeline caseId={42} />);
    const overrides = await screen.findAllByTestId('history-override');
    expect(overrides.map((line) => line.textContent)).toEqual([
      'Validated without payment: Trusted clinic, billed monthly',
      'Validated without payment: Second case of the day',
    ]);
    expect(screen.getAllByText(/^Unpaid amount:/).map((line) => line.textContent)).toEqual([
      'Unpaid amount: R$ 450,00',
    ]);
  });

  it('shows an order placed for a case in work as an upgrade, with its total', async () => {
    mockFetch(() =>
      ok([
        event({
          id: 1,
          action: 'checkout',
          fromStatus: 'execute',
          toStatus: 'execute',
          detail: { transactionId: 6, upgrade: true, total: 12_000, currency: 'BRL' },
        }),
      ]),
    );
    renderWithApp(<HistoryTimeline caseId={42} />);
    expect(await screen.findByText('Sofia Supervisor placed an order (payment #6).')).toBeVisible();
    expect(screen.getByText('Amount: R$ 120,00')).toBeVisible();
    expect(screen.getByText('An upgrade: the case was already in progress.')).toBeVisible();
  });

  it("writes files and payments as sentences in the reader's language, never raw keys", async () => {
    applyLanguage('ptBR');
    mockFetch(() =>
      ok([
        event({
          id: 1,
          action: 'attachmentAdded',
          detail: { attachmentId: 4, fileName: 'boca.stl' },
        }),
        event({
          id: 2,
          action: 'payment',
          actor: null,
          detail: {
            transactionId: 9,
            change: 'status',
            from: 'awaiting_payment',
            to: 'paid',
            cause: 'provider',
          },
        }),
        event({ id: 3, action: 'attachmentDeleted', detail: { attachmentId: 4 } }),
      ]),
    );
    renderWithApp(<HistoryTimeline caseId={42} />);
    expect(await screen.findByText('Sofia Supervisor adicionou o arquivo boca.stl.')).toBeVisible();
    expect(
      screen.getByText(
        'O provedor de pagamento mudou o pagamento #9 de "Aguardando pagamento" para "Pago".',
      ),
    ).toBeVisible();
    expect(screen.getByText('Sofia Supervisor excluiu um arquivo.')).toBeVisible();
    const shown = screen.getByTestId('case-history').textContent ?? '';
    expect(shown).not.toMatch(/attachmentAdded|attachmentDeleted|payment\b|history\./);
  });
});
