import { ROLES } from '@dentflow/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { demoEmail } from '../src/db/seed';
import { captureLog, createTestDatabase, startTestApp, type TestApp } from './support/test-app';

/**
 * Demo accounts share one public password: an empty production database gets none unless
 * `SEED_DEMO=true` says so, and a production start warns while any exists (seeded now or earlier).
 */
const PRODUCTION = { NODE_ENV: 'production', LOG_LEVEL: 'info' };
const WARNING = 'demo accounts exist';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

async function boot(env: Record<string, string>, template: 'demo' | 'bare') {
  const database = await createTestDatabase({ template });
  const log = captureLog();
  try {
    const t = await startTestApp(env, { databaseUrl: database.url, logStream: log.stream });
    opened.push({ ...t, close: async () => (await t.close(), await database.drop()) });
    const demoAccounts = (await t.app.database.db.select({ email: users.email }).from(users))
      .map((row) => row.email)
      .filter((email) => ROLES.some((role) => demoEmail(role) === email));
    const warnings = log.entries().filter((entry) => String(entry.msg).startsWith(WARNING));
    return { demoAccounts, warnings };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

describe('demo accounts and NODE_ENV=production', () => {
  it('an empty production database gets no demo account when SEED_DEMO is unset', async () => {
    const { demoAccounts, warnings } = await boot(PRODUCTION, 'bare');
    expect(demoAccounts).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('with SEED_DEMO=true the demo accounts exist and the start warns (level warn)', async () => {
    const { demoAccounts, warnings } = await boot({ ...PRODUCTION, SEED_DEMO: 'true' }, 'demo');
    expect(demoAccounts).toHaveLength(ROLES.length);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      demoAccounts: expect.arrayContaining(['admin@dentflow.local', 'doctor@dentflow.local']),
    });
  });

  it('a database seeded on an earlier start warns too, with SEED_DEMO unset', async () => {
    const { demoAccounts, warnings } = await boot(PRODUCTION, 'demo');
    expect(demoAccounts).toHaveLength(ROLES.length);
    expect(warnings).toHaveLength(1);
    expect((warnings[0]!.demoAccounts as string[]).sort()).toEqual(ROLES.map(demoEmail).sort());
  });

  it('outside production the demo data stays the default and nothing warns', async () => {
    const { demoAccounts, warnings } = await boot({ LOG_LEVEL: 'info' }, 'demo');
    expect(demoAccounts).toHaveLength(ROLES.length);
    expect(warnings).toEqual([]);
  });
});
