import { asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { settings, sleeves, surgicalKitManufacturers } from '../../db/schema';

/** A settings document as stored (undefined when none is). */
/** A settings document's stored value (null when none) as a sub-select of another statement. */
export const storedSettingSql = (key: string) =>
  sql<unknown>`(select ${settings.value} from ${settings} where ${settings.key} = ${key})`;

export async function findSetting(db: DbOrTx, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, key))
    .limit(1);
  return row?.value;
}

/**
 * A settings document locked for the rest of the transaction (undefined when none is stored).
 * The row is created first when missing, so two first saves of a key also queue on the lock.
 */
export async function lockSetting(tx: DbOrTx, key: string): Promise<unknown> {
  await tx
    .insert(settings)
    .values({ key, value: sql`'null'::jsonb` })
    .onConflictDoNothing({ target: settings.key });
  const [row] = await tx
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, key))
    .for('update');
  return row?.value ?? undefined;
}

export async function saveSetting(tx: DbOrTx, key: string, value: unknown): Promise<void> {
  await tx
    .insert(settings)
    .values({ key, value, modifiedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, modifiedAt: new Date() } });
}

export type KitManufacturerRow = typeof surgicalKitManufacturers.$inferSelect;

/** Every surgical kit manufacturer, by name; `lock` holds them for the rest of the transaction. */
export async function listKitManufacturers(
  db: DbOrTx,
  lock = false,
): Promise<KitManufacturerRow[]> {
  const query = db
    .select()
    .from(surgicalKitManufacturers)
    .orderBy(asc(surgicalKitManufacturers.manufactureName), asc(surgicalKitManufacturers.id));
  return lock ? query.for('update') : query;
}

export type KitManufacturerValues = Pick<
  KitManufacturerRow,
  'manufactureName' | 'systems' | 'active'
>;

export async function insertKitManufacturer(
  tx: DbOrTx,
  values: KitManufacturerValues,
): Promise<KitManufacturerRow> {
  const [row] = await tx.insert(surgicalKitManufacturers).values(values).returning();
  return row!;
}

export async function updateKitManufacturer(
  tx: DbOrTx,
  id: number,
  values: Partial<KitManufacturerValues>,
): Promise<void> {
  await tx
    .update(surgicalKitManufacturers)
    .set({ ...values, modifiedAt: new Date() })
    .where(eq(surgicalKitManufacturers.id, id));
}

export async function deleteKitManufacturers(tx: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(surgicalKitManufacturers).where(inArray(surgicalKitManufacturers.id, ids));
}

export type SleeveRow = typeof sleeves.$inferSelect;

/** The live (not deleted) sleeves, by name; `lock` holds them for the rest of the transaction. */
export async function listLiveSleeves(db: DbOrTx, lock = false): Promise<SleeveRow[]> {
  const query = db
    .select()
    .from(sleeves)
    .where(isNull(sleeves.deletedAt))
    .orderBy(asc(sleeves.sleeveManufacture), asc(sleeves.id));
  return lock ? query.for('update') : query;
}

export type SleeveValues = Pick<SleeveRow, 'sleeveManufacture' | 'prices'>;

export async function insertSleeve(tx: DbOrTx, values: SleeveValues): Promise<SleeveRow> {
  const [row] = await tx.insert(sleeves).values(values).returning();
  return row!;
}

export async function updateSleeve(
  tx: DbOrTx,
  id: number,
  values: Partial<SleeveValues> & { deletedAt?: Date },
): Promise<void> {
  await tx
    .update(sleeves)
    .set({ ...values, modifiedAt: new Date() })
    .where(eq(sleeves.id, id));
}

/** A concurrent save took a kit manufacturer's name (the unique index on the name). */
export function isKitNameViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'surgical_kit_manufacturers_name_unique') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
