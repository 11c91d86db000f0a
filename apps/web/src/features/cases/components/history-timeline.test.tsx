import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
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

describe('history timeline', { timeout: 15_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

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

  it('shows an order placed for a case in work as an upgrade', async () => {
    mockFetch(() =>
      ok([
        event({
          id: 1,
          action: 'checkout',
          fromStatus: 'new',
          toStatus: 'checkingout',
          detail: { transactionId: 5 },
        }),
        event({
          id: 2,
          action: 'checkout',
          fromStatus: 'execute',
          toStatus: 'execute',
          detail: { transactionId: 6, upgrade: true },
        }),
      ]),
    );
    renderWithApp(<HistoryTimeline caseId={42} />);
    expect(await screen.findAllByText('Order placed')).toHaveLength(2);
    expect(screen.getAllByText('Ordered more (upgrade)')).toHaveLength(1);
  });
});
