import type { DbOrTx } from '../../db/client';
import {
  findUserByEmail as findByEmail,
  findUserById as findById,
  findUserByIdForUpdate as findByIdForUpdate,
  findUserByLogin as findByLogin,
  findUsersByIds as findByIds,
  insertUser,
  isEmailTaken as emailTaken,
  isNicknameTaken as nicknameTaken,
  markUserVerified as markVerified,
  uniqueViolationOf as violatedUniqueField,
  updateSignInPlatform,
  updateUser,
  type NewUserRow,
  type UserPatch,
  type UserRow,
} from './users.repository';

// The users table as the other modules use it (sign-up, login, profile, students, privacy).
// The users module owns the table: others read and write it only through these functions.

export type { UserRow };

export function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  return findById(db, id);
}

/** The users of these ids that exist, in no particular order; each id once. */
export function findUsersByIds(db: DbOrTx, ids: readonly number[]): Promise<UserRow[]> {
  return findByIds(db, ids);
}

/** The user row locked until the transaction ends, for read-merge-write updates. */
export function findUserByIdForUpdate(tx: DbOrTx, id: number): Promise<UserRow | undefined> {
  return findByIdForUpdate(tx, id);
}

/** The login is an email or a nickname, both compared without regard to case. */
export function findUserByLogin(db: DbOrTx, login: string): Promise<UserRow | undefined> {
  return findByLogin(db, login);
}

export function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return findByEmail(db, email);
}

export function isEmailTaken(db: DbOrTx, email: string): Promise<boolean> {
  return emailTaken(db, email);
}

/** Nicknames are unique without regard to case; a user's own nickname does not count. */
export function isNicknameTaken(
  db: DbOrTx,
  nickName: string,
  exceptUserId?: number,
): Promise<boolean> {
  return nicknameTaken(db, nickName, exceptUserId);
}

/** A new account (sign-up); a taken email or nickname raises a unique violation. */
export function createUser(tx: DbOrTx, values: NewUserRow): Promise<UserRow> {
  return insertUser(tx, values);
}

/** Marks the account verified; an earlier verification time stays. */
export function markUserVerified(tx: DbOrTx, id: number): Promise<void> {
  return markVerified(tx, id);
}

/** The platform of a sign-in (`platformOf`) into `dataInfo.platform`; the row if it changed. */
export function recordSignInPlatform(
  tx: DbOrTx,
  id: number,
  platform: string,
): Promise<UserRow | undefined> {
  return updateSignInPlatform(tx, id, platform);
}

/** Saves the user's own profile patch (from `profilePatchOf`). */
export function updateUserProfile(tx: DbOrTx, id: number, patch: UserPatch): Promise<UserRow> {
  return updateUser(tx, id, patch);
}

/** Stores a new password hash; ending the sessions it invalidates is the caller's part. */
export async function setUserPassword(tx: DbOrTx, id: number, passwordHash: string): Promise<void> {
  await updateUser(tx, id, { passwordHash });
}

/** Which unique field (email or nickname) a concurrent insert or update hit, if any. */
export function uniqueViolationOf(error: unknown): 'email' | 'nickName' | undefined {
  return violatedUniqueField(error);
}
