import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type UserPatch = Partial<
  Pick<
    UserRow,
    'nickName' | 'fname' | 'lname' | 'displayName' | 'dataInfo' | 'dataAddress' | 'passwordHash'
  >
>;

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
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

/** Verified users holding the planner role, by display name. */
export async function listPlannerUsers(db: DbOrTx): Promise<{ id: number; displayName: string }[]> {
  return db
    .select({ id: users.id, displayName: users.displayName })
    .from(users)
    .where(and(sql`${users.roles} @> '["planner"]'::jsonb`, sql`${users.verifiedAt} is not null`))
    .orderBy(users.displayName, users.id);
}
