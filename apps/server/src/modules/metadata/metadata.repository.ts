import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { surgicalKitManufacturers } from '../../db/schema';

export async function listActiveKitManufacturers(db: DbOrTx) {
  return db
    .select({
      manufactureName: surgicalKitManufacturers.manufactureName,
      systems: surgicalKitManufacturers.systems,
    })
    .from(surgicalKitManufacturers)
    .where(eq(surgicalKitManufacturers.active, true))
    .orderBy(asc(surgicalKitManufacturers.manufactureName));
}
