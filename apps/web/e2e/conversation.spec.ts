import { expect, test, type Page } from '@playwright/test';
import { queryRows, setUserLanguage, sql } from './support/database';
import { signIn } from './support/session';

/**
 * The conversation end to end: a doctor and a planner on one case in two browser
 * contexts. The doctor writes on the public channel; the planner sees it without reloading and
 * the bell counts up; the planner answers and the doctor sees it. The doctor has no internal
 * channel. Everything arrives through the live updates (Socket.IO), no page is reloaded.
 */

test.describe.configure({ timeout: 90_000 });

let caseId = 0;

test.beforeAll(async () => {
  // The (Brazilian) demo doctor in English, like the planner.
  await setUserLanguage('doctor', 'en');
  // A case of the demo doctor that the demo planner plans, with the planner notified.
  const [row] = await queryRows<{ id: number; planner: number }>(
    `select c.id, p.id as planner
       from cases c
       join users o on o.id = c.owner_id and o.nick_name = 'doctor'
       join case_services s on s.case_id = c.id
       join users p on p.id = s.planner_id and p.nick_name = 'planner'
      where not c.case_archived and c.case_status = 'execute'
      order by c.id limit 1`,
  );
  expect(row, 'a seeded case of the doctor planned by the planner').toBeTruthy();
  caseId = row!.id;
  await sql(
    `insert into case_users (case_id, user_id, trigger_notification) values ($1, $2, true)
     on conflict (case_id, user_id) do update set trigger_notification = true`,
    [caseId, row!.planner],
  );
});

/** The number on the bell (0 when it shows none). */
async function bellCount(page: Page): Promise<number> {
  const badge = page.getByTestId('notification-bell-badge');
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.innerText()).replace(/\D/g, '') || '0');
}

async function openChat(page: Page) {
  await page.goto(`/case/${caseId}?tab=chat`);
  await expect(page.getByTestId('chat-channel-public')).toBeVisible();
  await expect(page.getByTestId('chat-composer')).toBeVisible();
}

async function send(page: Page, text: string) {
  await page.getByTestId('chat-composer').fill(text);
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-message').filter({ hasText: text })).toBeVisible();
  await expect(page.getByTestId('chat-composer')).toHaveValue('');
}

test('a doctor and a planner talk on the public channel, live', async ({ browser }) => {
  const doctor = await signIn(browser, 'doctor', 'en');
  await openChat(doctor);
  // Staff talk among themselves on the internal channel: not for the client side.
  await expect(doctor.getByTestId('chat-channel-internal')).toHaveCount(0);

  const planner = await signIn(browser, 'planner', 'en');
  await openChat(planner);
  await expect(planner.getByTestId('chat-channel-internal')).toBeVisible();
  const bellBefore = await bellCount(planner);

  const question = `Can the guide sit on tooth 14? ${Date.now()}`;
  await send(doctor, question);

  // The planner's open page shows it and the bell counts up, without a reload.
  await expect(planner.getByTestId('chat-message').filter({ hasText: question })).toBeVisible({
    timeout: 10_000,
  });
  await expect.poll(() => bellCount(planner), { timeout: 10_000 }).toBe(bellBefore + 1);

  const answer = `Yes, with a 4 mm sleeve. ${Date.now()}`;
  await send(planner, answer);
  await expect(doctor.getByTestId('chat-message').filter({ hasText: answer })).toBeVisible({
    timeout: 10_000,
  });

  // The planner's internal note never reaches the doctor.
  await planner.getByTestId('chat-channel-internal').click();
  const note = `Internal: check the bone density first. ${Date.now()}`;
  await send(planner, note);
  await doctor.waitForTimeout(1500);
  await expect(doctor.getByText(note)).toHaveCount(0);

  await doctor.context().close();
  await planner.context().close();
});
