import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REVIEW_REASONS, type CaseReviewDetail } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { caseDetail, caseReview } from '../test-fixtures';
import { ReviewBanner } from './review-banner';

/** The case owner (id 7, a doctor) or a supervisor looks at case 42 with these open reviews. */
function renderBanner(viewer: 'owner' | 'supervisor', reviews: CaseReviewDetail[]) {
  const profile =
    viewer === 'owner'
      ? completeProfile()
      : completeProfile({ id: 2, roles: ['supervisor', 'public'] });
  const { calls } = mockFetch((call) => {
    if (call.path === '/profile/get') return ok(profile);
    return ok({});
  });
  renderWithApp(<ReviewBanner detail={caseDetail({ caseReview: true, reviews })} />);
  return calls;
}

const PIX_WAITING = caseReview({ id: 5, reasonId: REVIEW_REASONS.pixApproval });

describe('review banner', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('tells the owner their payment is being confirmed, with nothing to close', async () => {
    renderBanner('owner', [PIX_WAITING]);
    expect(await screen.findByText(/Your payment is being confirmed/)).toBeInTheDocument();
    expect(screen.queryByText('Pix approval')).not.toBeInTheDocument();
    expect(screen.queryByText('This case is in review')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Problem solved' })).not.toBeInTheDocument();
  });

  it.each([
    ['paymentIssue', /There is an issue with your payment. Our team will contact you./],
    ['cancelRequestReview', /Your cancellation request is being reviewed./],
    ['plannerNotSet', /Our team is reviewing your case./],
  ] as const)('reads %s to the owner in their words', async (reason, text) => {
    renderBanner('owner', [caseReview({ reasonId: REVIEW_REASONS[reason] })]);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Problem solved' })).not.toBeInTheDocument();
  });

  it('lets the owner close a free review, and only that one', async () => {
    const calls = renderBanner('owner', [
      PIX_WAITING,
      caseReview({ id: 6, description: 'Please send the CT exam', canSolve: true }),
    ]);
    expect(await screen.findByText('This case is in review')).toBeInTheDocument();
    expect(screen.getByText(/Please send the CT exam/)).toBeInTheDocument();
    expect(screen.getByText(/Your payment is being confirmed/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Problem solved' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
        '/case/42/review/6/solve',
      ]),
    );
  });

  it('shows a supervisor the reason and the button', async () => {
    const calls = renderBanner('supervisor', [{ ...PIX_WAITING, canSolve: true }]);
    expect(await screen.findByText('Pix approval')).toBeInTheDocument();
    expect(screen.queryByText(/Your payment is being confirmed/)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Problem solved' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
        '/case/42/review/5/solve',
      ]),
    );
  });

  it('shows no button to a supervisor the server does not let close the review', async () => {
    renderBanner('supervisor', [PIX_WAITING]);
    expect(await screen.findByText('Pix approval')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Problem solved' })).not.toBeInTheDocument();
  });
});
