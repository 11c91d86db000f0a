import { expect, test } from '@playwright/test';
import { translate } from '@dentflow/domain';
import { queryRows, sql } from './support/database';
import { signIn } from './support/session';
import { webText } from './support/texts';

/**
 * Users administration end to end: an admin gives a doctor the planner role instead of
 * the doctor role, and that user's menu changes on their next page load (no shop, the planner's
 * lists) — the server already answers them as a planner.
 */

test.describe.configure({ timeout: 90_000 });

const NICK = 'roleswitch';

test.beforeAll(async () => {
  await sql(
    `insert into users (email, nick_name, fname, lname, display_name, password_hash, roles,
       internal, data_info, data_address, data_capabilities, verified_at)
     select $1 || '@dentflow.local', $1, 'Rosa', 'Troca', 'Rosa Troca', password_hash,
       '["doctor"]'::jsonb, false, data_info || '{"language":"en"}'::jsonb, data_address,
       data_capabilities || '{"instructorId": null}'::jsonb, now()
     from users where email = 'doctor@dentflow.local'
     on conflict do nothing`,
    [NICK],
  );
});

test('an admin makes a doctor a planner; their menu changes on the next page load', async ({
  browser,
}) => {
  const shop = webText('en', 'nav.shop');
  const user = await signIn(browser, NICK, 'en');
  const navigation = user.getByRole('navigation', { name: webText('en', 'nav.main') });
  await expect(navigation.getByRole('link', { name: shop })).toBeVisible();

  const admin = await signIn(browser, 'admin', 'en');
  await admin.goto('/users');
  await admin.getByTestId('users-search').fill(`${NICK}@dentflow.local`);
  const [row] = await queryRows<{ id: number }>('select id from users where nick_name = $1', [
    NICK,
  ]);
  await admin.getByTestId(`user-link-${row!.id}`).first().click();
  await expect(admin).toHaveURL(new RegExp(`/users/${row!.id}$`));
  await admin.getByTestId('user-role-doctor').uncheck();
  await admin.getByTestId('user-role-planner').check();
  await admin.getByTestId('user-access-save').click();
  await expect(admin.getByText(translate('en', 'admin', 'users.saved'))).toBeVisible();
  const [stored] = await queryRows<{ roles: string[] }>(
    'select roles from users where nick_name = $1',
    [NICK],
  );
  expect(stored!.roles).toEqual(['planner']);

  await user.reload();
  await expect(navigation.getByRole('link', { name: shop })).toHaveCount(0);
  await expect(navigation).toBeVisible();
  await admin.context().close();
  await user.context().close();
});
