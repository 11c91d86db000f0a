import { sql } from 'drizzle-orm';
import { hashPassword } from '../../../security/passwords';
import type { Db } from '../../client';
import type { Storage } from '../../../adapters/storage/storage';
import { announcements, surgicalKitManufacturers, users } from '../../schema';
import { DEMO_PASSWORD, seedDemoAccounts } from './accounts';
import { seedDemoCases } from './cases';
import { seedDemoProducts } from './products';
import { seedDemoShop } from './shop';

const KIT_MANUFACTURERS: { manufactureName: string; systems: string[] }[] = [
  {
    manufactureName: 'Neodent',
    systems: ['Grand Morse', 'Cone Morse', 'Hexágono Externo', 'Hexágono Interno'],
  },
  {
    manufactureName: 'Nobel Biocare',
    systems: ['NobelActive', 'NobelParallel CC', 'NobelReplace'],
  },
  { manufactureName: 'S.I.N. Implant System', systems: ['Strong SW', 'Unitite', 'Epikut'] },
  { manufactureName: 'Straumann', systems: ['BLT', 'BLX', 'TL'] },
  { manufactureName: 'Zimmer Biomet', systems: ['Tapered Screw-Vent', 'T3'] },
];

/**
 * Demo data on an empty database (no users yet): one verified account per role with a complete
 * profile and the password `Dentflow123` (the doctor and the clinic in Portuguese with reais, the
 * others in English with dollars), products, kit manufacturers, the shop's data
 * (`shop.ts`: sleeves, shipping table, coupons), an inactive announcement and about 30 demo
 * cases. With a storage the cases also get small sample photos and
 * STL files (a first `npm start`); without one (test templates) they get none. Returns whether it
 * seeded.
 */
export async function seedDemoData(db: Db, options: { storage?: Storage } = {}): Promise<boolean> {
  const [existing] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if ((existing?.count ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await seedDemoAccounts(tx, passwordHash);
    await seedDemoProducts(tx, { storage: options.storage });
    await tx.insert(surgicalKitManufacturers).values(KIT_MANUFACTURERS).onConflictDoNothing();
    await seedDemoShop(tx);
    await tx.insert(announcements).values({
      active: false,
      title: 'Scheduled maintenance',
      body: 'Dentflow will be unavailable on Sunday from 02:00 to 04:00 (UTC) for maintenance.',
    });
    await seedDemoCases(tx, { storage: options.storage });
  });
  return true;
}
