import type { DbOrTx } from '../../db/client';
import { expireAccountTokens, revokeAllSessions } from './auth.repository';

// The auth module owns sessions (refresh tokens) and mailed links (account tokens). Other
// modules that change an account close what the change invalidates through these functions,
// inside their own transaction.

/** A password change by the user: every other session ends, the caller's own stays. */
export async function endOtherSessions(
  tx: DbOrTx,
  userId: number,
  keptSessionId: string,
): Promise<void> {
  await revokeAllSessions(tx, userId, keptSessionId);
}

/** A password set for the user (by an admin or a reset link): every session and reset link ends. */
export async function endSessionsAndResetLinks(tx: DbOrTx, userId: number): Promise<void> {
  await revokeAllSessions(tx, userId);
  await expireAccountTokens(tx, userId, 'reset_password');
}

/** An account deleted: every session ends and no mailed link (verification, reset) works. */
export async function endAllAccountAccess(tx: DbOrTx, userId: number): Promise<void> {
  await revokeAllSessions(tx, userId);
  await expireAccountTokens(tx, userId, 'verify_account');
  await expireAccountTokens(tx, userId, 'reset_password');
}
