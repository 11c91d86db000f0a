import type { DbOrTx } from '../../db/client';
import { expireAccountTokens, revokeAllSessions } from './auth.repository';
import { deleteCredential, revokeTrustedDevices } from './two-factor/two-factor.repository';

// The auth module owns sessions (refresh tokens) and mailed links (account tokens). Other
// modules that change an account close what the change invalidates through these functions,
// inside their own transaction. A new password also forgets the devices remembered for the
// second factor: whoever changed it may not trust the devices the old password let in.

/** A password change by the user: every other session ends, the caller's own stays. */
export async function endOtherSessions(
  tx: DbOrTx,
  userId: number,
  keptSessionId: string,
): Promise<void> {
  await revokeAllSessions(tx, userId, keptSessionId);
  await revokeTrustedDevices(tx, userId);
}

/** A password set for the user (by an admin or a reset link): every session and reset link ends. */
export async function endSessionsAndResetLinks(tx: DbOrTx, userId: number): Promise<void> {
  await revokeAllSessions(tx, userId);
  await expireAccountTokens(tx, userId, 'reset_password');
  await revokeTrustedDevices(tx, userId);
}

/**
 * An account deleted: every session ends, no mailed link (verification, reset) works, and its
 * second factor (secret, recovery codes, remembered devices) is gone.
 */
export async function endAllAccountAccess(tx: DbOrTx, userId: number): Promise<void> {
  await revokeAllSessions(tx, userId);
  await deleteCredential(tx, userId);
  await revokeTrustedDevices(tx, userId);
  await expireAccountTokens(tx, userId, 'verify_account');
  await expireAccountTokens(tx, userId, 'reset_password');
}
