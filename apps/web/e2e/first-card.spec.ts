import { loadavg } from 'node:os';
import { expect, request as playwrightRequest, test, type Browser } from '@playwright/test';
import type { UserProfile } from '@dentflow/domain';
import { E2E_BASE_URL } from './support/environment';
import { restoreSignIn } from './support/signed-in-storage';
import { DEMO_PASSWORD } from './support/texts';
import { startAnchorServer } from './support/anchor-page';

/**
 * Time to the first case card (docs/performance.md, "Browser"): the demo doctor, signed in on this
 * browser (a refresh token in local storage, as a returning user has), opens /cases/new with the
 * CPU slowed down four times (a modest phone); from navigation start to the first visible case
 * card must take at most 2.5 s.
 *
 * It runs alone after the shards (the `quiet` project, scripts/e2e.sh), on its own server, each
 * load a cold first load (a new browser context: no HTTP or code cache). This virtual machine's
 * speed for page loads still changes by the hour, to more than twice as slow, so the budget is held
 * against an anchor page loaded the same way in the same run (decision 032): before each load of
 * the product, the same browser loads support/anchor-page.ts, a fixed page that is none of the
 * product's. The anchor took about ANCHOR_REFERENCE_MS when the machine was as fast as when the
 * budget was set; the budget is 2.5 s times how much slower than that it loads now, never less.
 * Each side takes the best of its loads, the one least disturbed by whatever else runs; attempts
 * go on until the product's best is within the budget, at least five and at most twelve. One load
 * of each before them is not counted: it pays for what a running browser and a running server
 * have already done. Every load is printed and attached. Playwright's trace is off here: its
 * snapshots would take the main thread the page needs.
 */

const FIRST_CARD_BUDGET_MS = 2_500;
const ANCHOR_REFERENCE_MS = 810;
const CPU_SLOWDOWN = 4;
const MIN_ATTEMPTS = 5;
const MAX_ATTEMPTS = 12;

test.use({ trace: 'off' });

interface Session {
  refreshToken: string;
  profile: UserProfile;
}

/** A fresh session of the demo doctor, and a case so that /cases/new has a card. */
async function doctorSession(withNewCase = false): Promise<Session> {
  const api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  try {
    const login = await api.post('/api/v1/auth/login', {
      data: { login: 'doctor', password: DEMO_PASSWORD },
    });
    expect(login.status()).toBe(200);
    const session = ((await login.json()) as { obj: Session & { accessToken: string } }).obj;
    if (withNewCase) {
      const created = await api.post('/api/v1/case/new', {
        headers: { authorization: `Bearer ${session.accessToken}` },
        data: { patient: { fname: 'Teodora', lname: 'Cronometrada' } },
      });
      expect(created.status()).toBe(200);
    }
    return { refreshToken: session.refreshToken, profile: session.profile };
  } finally {
    await api.dispose();
  }
}

/**
 * One cold load of a page (/cases/new signed in as `session`, or the anchor page): ms from
 * navigation start to the first visible case card.
 */
async function firstCardMs(browser: Browser, url: string, session?: Session): Promise<number> {
  const context = await browser.newContext();
  try {
    if (session) {
      await context.addInitScript(restoreSignIn, [session.refreshToken, session.profile] as const);
    }
    await context.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const card = document.querySelector('[data-testid="case-card"]');
        if (card?.checkVisibility()) {
          (window as { firstCaseCardMs?: number }).firstCaseCardMs = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`[first card] page error: ${error.message}`));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url);
    // Waits past the budget on purpose: a slow run still records how slow it was.
    await expect(page.getByTestId('case-card').first()).toBeVisible({ timeout: 30_000 });
    const measured = await page.evaluate(
      () => (window as { firstCaseCardMs?: number }).firstCaseCardMs ?? null,
    );
    expect(measured, 'the first case card was seen by the page').not.toBeNull();
    return Math.round(measured!);
  } finally {
    await context.close();
  }
}

test('the first case card of /cases/new shows within 2.5 s, scaled by the anchor page, at 4x CPU slowdown', async ({
  browser,
}, testInfo) => {
  // Twelve pairs of loads of up to about 8 s, with their sign-ins, outlast the default minute.
  test.setTimeout(240_000);
  const anchor = await startAnchorServer();
  const product = `${E2E_BASE_URL}/cases/new`;
  try {
    // A session per load: each load rotates its refresh token.
    const warmUp = {
      anchorMs: await firstCardMs(browser, anchor.url),
      productMs: await firstCardMs(browser, product, await doctorSession(true)),
    };
    const attempts: { anchorMs: number; productMs: number; loadAverage: string }[] = [];
    const best = () => ({
      anchorMs: Math.min(...attempts.map((a) => a.anchorMs)),
      productMs: Math.min(...attempts.map((a) => a.productMs)),
    });
    const budgetMs = () =>
      Math.round(FIRST_CARD_BUDGET_MS * Math.max(1, best().anchorMs / ANCHOR_REFERENCE_MS));
    while (
      attempts.length < MAX_ATTEMPTS &&
      (attempts.length < MIN_ATTEMPTS || best().productMs > budgetMs())
    ) {
      const session = await doctorSession();
      const loadAverage = loadavg()
        .map((n) => n.toFixed(1))
        .join(' ');
      const anchorMs = await firstCardMs(browser, anchor.url);
      attempts.push({
        anchorMs,
        productMs: await firstCardMs(browser, product, session),
        loadAverage,
      });
    }
    const result = {
      route: '/cases/new',
      cpuSlowdown: CPU_SLOWDOWN,
      best: best(),
      budgetMs: budgetMs(),
      anchorReferenceMs: ANCHOR_REFERENCE_MS,
      attempts,
      warmUp,
    };
    console.log(
      `time to first case card (${CPU_SLOWDOWN}x CPU slowdown): best ${best().productMs} ms, ` +
        `budget ${budgetMs()} ms (anchor page best ${best().anchorMs} ms, reference ` +
        `${ANCHOR_REFERENCE_MS} ms); loads, anchor / product: ` +
        attempts
          .map((a) => `${a.anchorMs} / ${a.productMs} ms (load ${a.loadAverage})`)
          .join(', ') +
        `; not counted: ${warmUp.anchorMs} / ${warmUp.productMs} ms`,
    );
    testInfo.annotations.push({
      type: 'time to first case card',
      description: `${best().productMs} ms (budget ${budgetMs()} ms)`,
    });
    await testInfo.attach('time-to-first-case-card', {
      body: JSON.stringify(result, null, 2),
      contentType: 'application/json',
    });
    expect(best().productMs).toBeLessThanOrEqual(budgetMs());
  } finally {
    await anchor.close();
  }
});
