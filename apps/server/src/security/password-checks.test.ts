import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCounters } from '../adapters/rate-limit/rate-counters';
import { accountOfLogin, accountOfUser, createPasswordChecks } from './password-checks';
import { hashPassword } from './passwords';

let hash: string;
beforeAll(async () => {
  hash = await hashPassword('right-password');
});

/** A clock the test moves, so a window can end without waiting. */
function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const limits = { windowMs: 60_000, passwordPerAccount: 3, passwordPerAddress: 4 };

type Attempt = [account: string, address: string, password: 'right' | 'wrong'];
const A = accountOfUser(1);
const B = accountOfUser(2);
const C = accountOfLogin('Nobody@Example.test');

describe('password checks: wrong passwords counted per account and per address', () => {
  it.each<[string, Attempt[], (boolean | 429)[]]>([
    [
      'one account from many addresses: blocked after 3',
      [
        [A, '10.0.0.1', 'wrong'],
        [A, '10.0.0.2', 'wrong'],
        [A, '10.0.0.3', 'wrong'],
        [A, '10.0.0.4', 'wrong'],
        [A, '10.0.0.5', 'right'],
      ],
      [false, false, false, 429, 429],
    ],
    [
      'one address across accounts: blocked after 4',
      [
        [A, '10.0.0.1', 'wrong'],
        [B, '10.0.0.1', 'wrong'],
        [C, '10.0.0.1', 'wrong'],
        [accountOfUser(3), '10.0.0.1', 'wrong'],
        [accountOfUser(4), '10.0.0.1', 'wrong'],
      ],
      [false, false, false, false, 429],
    ],
    [
      'right passwords take their count back',
      [
        [A, '10.0.0.1', 'right'],
        [A, '10.0.0.1', 'right'],
        [A, '10.0.0.1', 'right'],
        [A, '10.0.0.1', 'right'],
        [A, '10.0.0.1', 'wrong'],
        [A, '10.0.0.1', 'wrong'],
        [A, '10.0.0.1', 'wrong'],
        [A, '10.0.0.1', 'wrong'],
      ],
      [true, true, true, true, false, false, false, 429],
    ],
    [
      'a blocked address does not use up the accounts tried from it',
      [
        [A, '10.0.0.1', 'wrong'],
        [B, '10.0.0.1', 'wrong'],
        [B, '10.0.0.1', 'wrong'],
        [C, '10.0.0.1', 'wrong'],
        [A, '10.0.0.1', 'wrong'],
        [A, '10.0.0.1', 'wrong'],
        [A, '10.0.0.9', 'wrong'],
        [A, '10.0.0.9', 'wrong'],
        [A, '10.0.0.9', 'wrong'],
      ],
      // A counted once at 10.0.0.1: two more wrong ones elsewhere, then blocked.
      [false, false, false, false, 429, 429, false, false, 429],
    ],
    [
      'an IPv6 client is one address across its /56',
      [
        [A, '2001:db8:1:100::1', 'wrong'],
        [B, '2001:db8:1:1ff::2', 'wrong'],
        [C, '2001:db8:1:120:abcd::3', 'wrong'],
        [accountOfUser(3), '2001:db8:1:101::4', 'wrong'],
        [accountOfUser(4), '2001:db8:1:1aa::5', 'wrong'],
      ],
      [false, false, false, false, 429],
    ],
  ])('%s', async (_name, attempts, expected) => {
    const checks = createPasswordChecks(createMemoryCounters(), limits);
    const answers: (boolean | 429)[] = [];
    for (const [account, address, password] of attempts) {
      answers.push(
        await checks
          .verify({ account, address }, hash, password === 'right' ? 'right-password' : 'nope')
          .catch((error: { statusCode: number; code: string }) => {
            expect(error.code).toBe('RATE_LIMITED');
            return error.statusCode as 429;
          }),
      );
    }
    expect(answers).toEqual(expected);
  });

  it('concurrent guesses never check more than the limit', async () => {
    const checks = createPasswordChecks(createMemoryCounters(), limits);
    const answers = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        checks.verify({ account: A, address: `10.1.0.${i}` }, hash, 'nope'),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
  });

  it('the window ends: the account may try again', async () => {
    const time = clock();
    const checks = createPasswordChecks(createMemoryCounters(time.now), limits);
    for (let i = 0; i < 3; i++)
      await checks.verify({ account: A, address: `10.2.0.${i}` }, hash, 'nope');
    await expect(
      checks.verify({ account: A, address: '10.2.0.9' }, hash, 'right-password'),
    ).rejects.toMatchObject({ statusCode: 429 });
    time.advance(60_000);
    expect(await checks.verify({ account: A, address: '10.2.0.9' }, hash, 'right-password')).toBe(
      true,
    );
  });

  it('an unknown login is keyed without regard to case or spaces, and never by its text', () => {
    expect(accountOfLogin(' Nobody@Example.test ')).toBe(C);
    expect(C).not.toContain('nobody');
    expect(accountOfLogin('other')).not.toBe(C);
  });
});
