import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { emptyCaseNotificationDetails, type CaseStatus } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderRoutes, renderWithApp } from '../../../test/render';
import { CasePage } from '../routes/case-page';
import { caseDetail, casePreview } from '../test-fixtures';
import { CaseCard } from './case-card';

// One hour from now: near for a case still being planned.
const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000).toISOString();

function serveCase(caseStatus: CaseStatus, deadlineAt: string) {
  mockFetch((call) => {
    if (call.path === '/case/42/get') return ok(caseDetail({ caseStatus, deadlineAt }));
    if (call.path === '/case/42/chat') return ok([]);
    if (call.path === '/notification/getStatus/42') {
      return ok({
        caseId: 42,
        unseen: 0,
        trigger: false,
        details: emptyCaseNotificationDetails(),
      });
    }
    if (call.path === '/notification/case/42') return ok([]);
    return ok(completeProfile());
  });
}

async function cardWarns(caseStatus: CaseStatus, deadlineAt: string): Promise<boolean> {
  mockFetch(() => ok(completeProfile()));
  const view = renderWithApp(
    <CaseCard item={casePreview({ caseStatus, deadlineAt })} onOpen={() => {}} />,
  );
  const deadline = await screen.findByTestId('case-deadline');
  const warns = deadline.hasAttribute('data-deadline-near');
  view.unmount();
  return warns;
}

async function pageWarns(caseStatus: CaseStatus, deadlineAt: string): Promise<boolean> {
  serveCase(caseStatus, deadlineAt);
  const view = renderRoutes([{ path: '/case/:id', element: <CasePage /> }], '/case/42');
  const deadline = await screen.findByTestId('case-deadline', {}, { timeout: 5_000 });
  const warns = deadline.hasAttribute('data-deadline-near');
  view.unmount();
  return warns;
}

// The card and the page read the one domain rule (`isDeadlineNear`): a case whose planning is
// done, or that was cancelled, shows no deadline warning on either.
describe('the deadline warning on the case card and the case page', { timeout: 30_000 }, () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['execute', true],
    ['cancelled', false],
    ['finished', false],
  ] as const)('a %s case an hour before its deadline: warning %s', async (status, near) => {
    const deadlineAt = inAnHour();
    expect(await cardWarns(status, deadlineAt)).toBe(near);
    expect(await pageWarns(status, deadlineAt)).toBe(near);
  });
});
