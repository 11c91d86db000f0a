import {
  and,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { foldText, type Role } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { escapeLike } from '../../db/like-pattern';
import { preparedStatement } from '../../db/prepared-statement';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type UserPatch = Partial<
  Pick<
    UserRow,
    'nickName' | 'fname' | 'lname' | 'displayName' | 'dataInfo' | 'dataAddress' | 'passwordHash'
  >
>;

/** Built once per connection: every profile read and many case changes read a user by id. */
const userByIdStatement = preparedStatement('user_by_id', (db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
);

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await userByIdStatement(db, { id });
  return row;
}

/** The users of these ids that exist, in no particular order; each id once. */
export async function findUsersByIds(db: DbOrTx, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
}

/** The user row locked until the transaction ends, for read-merge-write updates. */
export async function findUserByIdForUpdate(tx: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return row;
}

/** The login is an email or a nickname, both compared without regard to case. */
export async function findUserByLogin(db: DbOrTx, login: string): Promise<UserRow | undefined> {
  const value = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(users.email, value), eq(sql`lower(${users.nickName})`, value)))
    .limit(1);
  return row;
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return row;
}

export async function isEmailTaken(db: DbOrTx, email: string): Promise<boolean> {
  return (await findUserByEmail(db, email)) !== undefined;
}

/** Nicknames are unique without regard to case; a user's own nickname does not count. */
export async function isNicknameTaken(
  db: DbOrTx,
  nickName: string,
  exceptUserId?: number,
): Promise<boolean> {
  const sameNick = eq(sql`lower(${users.nickName})`, nickName.trim().toLowerCase());
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? and(sameNick, ne(users.id, exceptUserId)) : sameNick)
    .limit(1);
  return row !== undefined;
}

export async function insertUser(db: DbOrTx, values: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert into users returned nothing');
  return row;
}

export async function updateUser(db: DbOrTx, id: number, patch: UserPatch): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...patch, modifiedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error(`user ${id} not found`);
  return row;
}

/**
 * Records the platform of a sign-in in `dataInfo.platform`; not a change of the profile, so
 * `modifiedAt` stays. Returns the updated row, or undefined when it was already that platform.
 */
export async function updateSignInPlatform(
  db: DbOrTx,
  id: number,
  platform: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ dataInfo: sql`${users.dataInfo} || jsonb_build_object('platform', ${platform}::text)` })
    .where(and(eq(users.id, id), sql`${users.dataInfo}->>'platform' IS DISTINCT FROM ${platform}`))
    .returning();
  return row;
}

export async function markUserVerified(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(users)
    .set({ verifiedAt: sql`coalesce(${users.verifiedAt}, now())`, modifiedAt: new Date() })
    .where(eq(users.id, id));
}

/** Unique-violation on one of the users' unique indexes, raised by a concurrent insert/update. */
export function uniqueViolationOf(error: unknown): 'email' | 'nickName' | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') {
      if (constraint === 'users_email_unique') return 'email';
      if (constraint === 'users_nick_name_lower_unique') return 'nickName';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Verified, non-deleted users holding the planner role, by display name. */
export async function listPlannerUsers(db: DbOrTx): Promise<{ id: number; displayName: string }[]> {
  return db
    .select({ id: users.id, displayName: users.displayName })
    .from(users)
    .where(and(hasRole('planner'), isNotNull(users.verifiedAt), isNull(users.deletedAt)))
    .orderBy(users.displayName, users.id);
}

/** Everything an admin may write on a user row (profile sections, roles, flags, deletion). */
export type AdminUserPatch = Partial<Omit<UserRow, 'id' | 'createdAt' | 'modifiedAt'>>;

export async function updateUserAsAdmin(
  db: DbOrTx,
  id: number,
  patch: AdminUserPatch,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...patch, modifiedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error(`user ${id} not found`);
  return row;
}

const hasRole = (role: Role) => sql`${users.roles} @> ${JSON.stringify([role])}::jsonb`;

/**
 * The accented Latin letters the database folds like the domain's `foldText`, as the two strings
 * of `translate()`: the users table keeps no folded copy and `unaccent` is not available on every
 * database this runs on (PGlite), so the fold is spelled out.
 */
const ACCENT_FOLD = (() => {
  const accented = 'ÀÁÂÃÄÅĀĂĄÇĆČĎÈÉÊËĒĖĘĚÌÍÎÏĪĮÑŃŇÒÓÔÕÖŌŐŔŘŚŠŞŤÙÚÛÜŪŮŰŲÝŸŹŻŽ';
  const from = [...accented, ...accented.toLowerCase()].filter(
    (char) => foldText(char).length === 1 && foldText(char) !== char.toLowerCase(),
  );
  return { from: from.join(''), to: from.map((char) => foldText(char)).join('') };
})();

/** A text column folded in SQL: accents removed, lower case (like `foldText`). */
const folded = (column: SQLWrapper) =>
  sql`lower(translate(${column}, ${ACCENT_FOLD.from}, ${ACCENT_FOLD.to}))`;

const containsFolded = (column: SQLWrapper, text: string) =>
  sql`${folded(column)} like ${`%${escapeLike(foldText(text))}%`}`;

const FULL_NAME = sql`${users.fname} || ' ' || ${users.lname}`;

export interface UsersFilter {
  role?: Role | undefined;
  verified?: boolean | undefined;
  internal?: boolean | undefined;
  /** Name, email or nickname; accent- and case-insensitive. */
  q?: string | undefined;
}

function usersFilterCondition(filter: UsersFilter): SQL | undefined {
  const q = filter.q?.trim();
  return and(
    isNull(users.deletedAt),
    filter.role ? hasRole(filter.role) : undefined,
    filter.verified === undefined
      ? undefined
      : filter.verified
        ? isNotNull(users.verifiedAt)
        : isNull(users.verifiedAt),
    filter.internal === undefined ? undefined : eq(users.internal, filter.internal),
    q
      ? or(
          containsFolded(users.displayName, q),
          containsFolded(FULL_NAME, q),
          containsFolded(users.email, q),
          containsFolded(users.nickName, q),
        )
      : undefined,
  );
}

/** One page of the non-deleted users matching the filter, newest first, with the total. */
export async function listUsersPage(
  db: DbOrTx,
  filter: UsersFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const where = usersFilterCondition(filter);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(pageSize)
      .offset(page * pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

export type UserPickField = 'email' | 'nickname' | 'name';

/** Non-deleted users whose field contains the value (accent- and case-insensitive), for pickers. */
export async function findUsersBy(
  db: DbOrTx,
  field: UserPickField,
  value: string,
  limit: number,
): Promise<UserRow[]> {
  const match =
    field === 'email'
      ? containsFolded(users.email, value)
      : field === 'nickname'
        ? containsFolded(users.nickName, value)
        : or(containsFolded(users.displayName, value), containsFolded(FULL_NAME, value));
  return db
    .select()
    .from(users)
    .where(and(isNull(users.deletedAt), match))
    .orderBy(users.displayName, users.id)
    .limit(limit);
}

/** Verified, non-deleted instructors, by display name. */
export async function listInstructorUsers(
  db: DbOrTx,
): Promise<{ id: number; displayName: string; instructorDiscount: number }[]> {
  const rows = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      capabilities: users.dataCapabilities,
    })
    .from(users)
    .where(and(hasRole('instructor'), isNotNull(users.verifiedAt), isNull(users.deletedAt)))
    .orderBy(users.displayName, users.id);
  return rows.map(({ id, displayName, capabilities }) => ({
    id,
    displayName,
    instructorDiscount: capabilities.instructorDiscount,
  }));
}
