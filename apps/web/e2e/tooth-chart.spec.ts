import { expect, test } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { queryRows, setUserLanguage, sql } from './support/database';
import { logIn, skipWelcome } from './support/session';
import { DEMO_PASSWORD } from './support/texts';

/**
 * On a phone, a doctor fills the data step of a new case that orders a per-tooth product: the
 * FDI chart wraps to the phone's width, the teeth are chosen by touch and saved with the service.
 * The case and its service are arranged in the database; the chart is the point.
 */

const pt = (key: string, params?: Record<string, string | number>) =>
  translate('ptBR', 'cases', key, params);
const TEETH = 2;

test.use({
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  locale: 'pt-BR',
});
test.describe.configure({ timeout: 120_000 });

test.beforeAll(() => setUserLanguage('doctor', 'ptBR'));

test('a doctor picks the teeth of a per-tooth service on a phone and they are saved', async ({
  page,
}) => {
  // A new case of the demo doctor, with the per-tooth mock-up ordered for two teeth.
  const [demo] = await queryRows<{ id: number }>(
    `select c.id from cases c join users u on u.id = c.owner_id
      where u.nick_name = 'doctor' and c.case_status = 'new' and not c.case_archived
      order by c.id limit 1`,
  );
  const caseId = demo!.id;
  const [service] = await queryRows<{ id: number }>(
    `insert into case_services (case_id, product_id, product_category_id, quantity, data_version)
     select $1, p.id, p.product_category_id, $2, 3 from products p where p.code = 'MFG-MOCKUP'
     returning id`,
    [caseId, TEETH],
  );
  const serviceId = service!.id;

  await skipWelcome(page);
  await page.goto('/login');
  await logIn(page, 'ptBR', 'doctor', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/cases\/new$/);
  await page.goto(`/cases/create?case=${caseId}&step=2`);

  const card = page.getByTestId(`intake-service-${serviceId}`);
  const upper = card.getByRole('group', { name: pt('serviceData.upperJaw') });
  await expect(upper).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('teeth-count')).toHaveText(
    pt('serviceData.teethChosen', { chosen: 0, n: TEETH }),
  );
  // Every tooth button is on the phone's screen width (the jaw wraps into rows of eight).
  for (const tooth of [18, 28, 38, 48]) {
    const box = await card
      .getByRole('button', { name: pt('serviceData.tooth', { n: tooth }) })
      .boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(box!.width).toBeGreaterThanOrEqual(32);
  }

  for (const tooth of [11, 36]) {
    const button = card.getByRole('button', { name: pt('serviceData.tooth', { n: tooth }) });
    await button.tap();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }
  await expect(card.getByTestId('teeth-count')).toHaveText(
    pt('serviceData.teethChosen', { chosen: TEETH, n: TEETH }),
  );
  await card.getByRole('button', { name: pt('serviceData.save') }).tap();
  await expect(
    page.getByText(
      new RegExp(`^(${pt('serviceData.saved')}|${pt('serviceData.savedIncomplete')})`),
    ),
  ).toBeVisible();

  const [saved] = await queryRows<{ teeth: number[] }>(
    `select data -> 'teeth' as teeth from case_services where id = $1`,
    [serviceId],
  );
  expect(saved!.teeth).toEqual([11, 36]);

  // The case page reads the same teeth back.
  await page.goto(`/case/${caseId}`);
  const chosen = page.getByRole('button', { name: pt('serviceData.tooth', { n: 36 }) });
  await expect(chosen).toHaveAttribute('aria-pressed', 'true', { timeout: 30_000 });
  await sql('delete from case_services where id = $1', [serviceId]);
});
