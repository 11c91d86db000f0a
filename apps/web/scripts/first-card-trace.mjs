// Loads /cases/new as the signed-in demo doctor with the CPU slowed down and prints where the
// time to the first case card goes: navigation timing, each resource (start, end, size), long
// tasks, paints and the first card. Usage (a server on E2E_PORT):
//   npx tsx apps/web/scripts/first-card-trace.mjs [runs=3] [rate=4] [--quiet] [--no-warm-up]
// TRACE_FILE=<file.json> also records a Chrome trace (open it in the DevTools Performance panel).
import { chromium } from '@playwright/test';
import { loadavg } from 'node:os';
import { CHROMIUM_LAUNCH } from '../e2e/support/chromium.ts';
import { restoreSignIn } from '../e2e/support/signed-in-storage.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const base = `http://127.0.0.1:${port}`;
const runs = Number(process.argv[2] ?? 3);
const rate = Number(process.argv[3] ?? 4);
const quiet = process.argv.includes('--quiet');

async function login() {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'doctor', password: 'Dentflow123' }),
  });
  if (!response.ok) throw new Error(`login: ${response.status}`);
  return (await response.json()).obj;
}

const browser = await chromium.launch(CHROMIUM_LAUNCH);
let session = await login();
const results = [];
// The first load of a fresh browser (and of a fresh server) pays once for what a user's running
// browser has done: it runs first and is not counted (--no-warm-up counts it).
const warmUp = !process.argv.includes('--no-warm-up');
for (let run = warmUp ? -1 : 0; run < runs; run += 1) {
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 720 },
  });
  await context.addInitScript(restoreSignIn, [session.refreshToken, session.profile]);
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
    }).observe({ type: 'longtask', buffered: true });
    const observer = new MutationObserver(() => {
      const card = document.querySelector('[data-testid="case-card"]');
      if (card && card.checkVisibility()) {
        window.__firstCard = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const traceFile = process.env.TRACE_FILE;
  if (traceFile)
    await browser.startTracing(page, {
      path: traceFile,
      categories: [
        'devtools.timeline',
        'blink.user_timing',
        'v8.execute',
        'disabled-by-default-devtools.timeline',
        'loading',
      ],
    });
  await page.goto(`${base}/cases/new`);
  await page.getByTestId('case-card').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => window.__firstCard !== undefined);
  if (traceFile) await browser.stopTracing();
  const data = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const r = (n) => Math.round(n);
    return {
      firstCard: r(window.__firstCard),
      nav: {
        responseEnd: r(nav.responseEnd),
        domInteractive: r(nav.domInteractive),
        dcl: r(nav.domContentLoadedEventEnd),
      },
      paints: performance.getEntriesByType('paint').map((p) => [p.name, r(p.startTime)]),
      marks: performance.getEntriesByType('mark').map((m) => [m.name, r(m.startTime)]),
      resources: performance.getEntriesByType('resource').map((e) => ({
        name: e.name.replace(location.origin, ''),
        type: e.initiatorType,
        start: r(e.startTime),
        end: r(e.responseEnd),
        size: e.encodedBodySize,
      })),
      longTasks: window.__longTasks,
    };
  });
  session = {
    refreshToken: await page.evaluate(() => localStorage.getItem('dentflow.refreshToken')),
    profile: session.profile,
  };
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await context.close();
  if (run < 0) {
    console.log(`warm-up (not counted): first card ${data.firstCard} ms (load average ${load})`);
    continue;
  }
  results.push({ load, ...data });
  console.log(`run ${run + 1}: first card ${data.firstCard} ms (load average ${load})`);
  if (!quiet) {
    console.log(
      '  nav',
      JSON.stringify(data.nav),
      'paints',
      JSON.stringify(data.paints),
      'marks',
      JSON.stringify(data.marks),
    );
    for (const e of data.resources.filter((x) => x.start < data.firstCard + 200))
      console.log(
        `  ${String(e.start).padStart(5)} → ${String(e.end).padStart(5)}  ${String(e.size).padStart(7)}  ${e.type.padEnd(14)} ${e.name}`,
      );
    const busy = data.longTasks.filter(([s]) => s < data.firstCard);
    console.log(
      `  long tasks before the card: ${busy.length}, ${busy.reduce((a, [, d]) => a + d, 0)} ms:`,
      JSON.stringify(busy),
    );
  }
}
const times = results.map((x) => x.firstCard);
console.log(`first card: min ${Math.min(...times)} ms, all ${times.join(', ')}`);
await browser.close();
