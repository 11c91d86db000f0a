import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { bearer, json, lastLinkTo, login, startTestApp, type TestApp } from './support/test-app';

/** The embedded default: no DATABASE_URL, PGlite file-backed under DATA_DIR/db. */
const dataDir = mkdtempSync(join(tmpdir(), 'dentflow-pglite-'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { pglite: true, dataDir });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PGlite smoke', () => {
  it('boots migrated and seeded on PGlite', async () => {
    expect(t.app.database.driver).toBe('pglite');
    expect(json(await t.app.inject({ method: 'GET', url: '/api/health' }))).toEqual({
      obj: { status: 'ok', database: 'up' },
    });
    await login(t.app, 'admin');
  });

  it('registers, verifies from the outbox link, logs in, rotates and reads the profile', async () => {
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email: 'lite@example.com',
        password: 'Secret123',
        fname: 'Lia',
        lname: 'Lite',
        nickName: 'lite',
        terms: true,
      },
    });
    expect(register.statusCode).toBe(200);
    const token = lastLinkTo(await t.outbox(), 'lite@example.com', 'verify');
    expect(
      json(
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/verifyAccount',
          payload: { token },
        }),
      ),
    ).toEqual({
      obj: { verified: true },
    });
    const session = await login(t.app, 'LITE', 'Secret123');
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/refresh_token',
          payload: { refresh_token: session.refreshToken },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    // The losers presented a rotated token, which closes the session (decision 003).
    const closed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: bearer(session),
    });
    expect(closed.statusCode).toBe(401);
    const again = await login(t.app, 'lite', 'Secret123');
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: bearer(again),
    });
    expect(
      json<{ obj: { dataGeneral: { nickName: string } } }>(profile).obj.dataGeneral.nickName,
    ).toBe('lite');
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/v1/profile/set',
      headers: bearer(again),
      payload: {
        dataAddress: {
          zipCode: '01310-100',
          country: 'Brasil',
          state: 'SP',
          city: 'São Paulo',
          address: 'Av. Paulista, 1',
        },
      },
    });
    expect(set.statusCode).toBe(200);
  });

  it('restarts on the same data dir without re-running migrations or the seed, keeping sessions', async () => {
    const session = await login(t.app, 'lite', 'Secret123');
    const countBefore = await t.app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users);
    await t.app.close();
    t = await startTestApp({}, { pglite: true, dataDir });
    const countAfter = await t.app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users);
    expect(countAfter).toEqual(countBefore);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/v1/profile/get',
      headers: bearer(session),
    });
    expect(profile.statusCode).toBe(200);
  }, 120_000);
});
