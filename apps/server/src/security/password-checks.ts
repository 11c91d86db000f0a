import { createHash } from 'node:crypto';
import type { RateCounters } from '../adapters/rate-limit/rate-counters';
import { AppError } from '../http/app-error';
import { addressKey } from './client-address';
import { verifyPassword } from './passwords';

export interface PasswordCheckLimits {
  windowMs: number;
  /** Wrong passwords per account per window (against one account from any number of addresses). */
  passwordPerAccount: number;
  /** Wrong passwords per client address per window (one address across any number of accounts). */
  passwordPerAddress: number;
}

/** Who a password check counts against: the account it unlocks and the client's address. */
export interface PasswordCheckSubject {
  /** `accountOfUser(id)`, or `accountOfLogin(login)` when no account answers to the login. */
  account: string;
  address: string | undefined;
}

export const accountOfUser = (userId: number) => `user:${userId}`;

/** An unknown login is counted like an account, so it answers exactly like a known one. */
export const accountOfLogin = (login: string) =>
  `login:${createHash('sha256').update(login.trim().toLowerCase()).digest('hex').slice(0, 32)}`;

export interface PasswordChecks {
  /**
   * Verifies a password: login, approving a case, changing the password, deleting the account.
   * Every check counts against the account and the address; a right password takes its count
   * back, so only wrong ones add up (counting first keeps concurrent guesses within the limit).
   * Past either limit in the window: 429 RATE_LIMITED, and the password is not checked.
   */
  verify(subject: PasswordCheckSubject, passwordHash: string, password: string): Promise<boolean>;
  /**
   * Any other secret that unlocks the account (a two-factor code), under the same counters as the
   * password: a wrong code is a wrong guess at the account like a wrong password.
   */
  check(subject: PasswordCheckSubject, isRight: () => Promise<boolean>): Promise<boolean>;
}

export function createPasswordChecks(
  counters: RateCounters,
  limits: PasswordCheckLimits,
): PasswordChecks {
  async function check(subject: PasswordCheckSubject, isRight: () => Promise<boolean>) {
    const accountKey = `password-account:${subject.account}`;
    const addressKeyed = `password-address:${addressKey(subject.address)}`;
    const [byAccount, byAddress] = await Promise.all([
      counters.hit(accountKey, limits.windowMs),
      counters.hit(addressKeyed, limits.windowMs),
    ]);
    const undo = () => Promise.all([counters.undo(accountKey), counters.undo(addressKeyed)]);
    if (byAccount > limits.passwordPerAccount || byAddress > limits.passwordPerAddress) {
      // Refused unchecked, so it is no wrong password: a blocked account does not also use up
      // its user's office address, nor a blocked address the accounts tried from it.
      await undo();
      throw new AppError(429, 'RATE_LIMITED');
    }
    const right = await isRight();
    if (right) await undo();
    return right;
  }
  return {
    verify: (subject, passwordHash, password) =>
      check(subject, () => verifyPassword(passwordHash, password)),
    check,
  };
}
