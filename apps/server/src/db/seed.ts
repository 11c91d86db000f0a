import { and, inArray, isNull, sql } from 'drizzle-orm';
import { ROLES, type Role } from '@dentflow/domain';
import { hashPassword } from '../security/passwords';
import type { Db } from './client';
import type { Storage } from '../adapters/storage/storage';
import { seedDemoCases } from './seed-cases';
import { seedDemoProducts } from './seed-products';
import { seedDemoShop } from './seed-shop';
import {
  announcements,
  productCategories,
  surgicalKitManufacturers,
  users,
  type TranslatedName,
} from './schema';

export const DEMO_PASSWORD = 'Dentflow123';
export const demoEmail = (role: Role) => `${role}@dentflow.local`;

/**
 * The demo accounts (by their demo emails) that exist and are not deleted, seeded on this start
 * or an earlier one: production warns about them at start.
 */
export async function findDemoAccounts(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.email, ROLES.map(demoEmail)), isNull(users.deletedAt)))
    .orderBy(users.id);
  return rows.map((row) => row.email);
}

/**
 * The demo doctor and clinic are a Brazilian dentist and clinic: Portuguese, prices in reais (so
 * Pix is offered to them). The other demo users speak English and see dollars.
 */
const brazilianClient = (role: Role) => role === 'doctor' || role === 'clinic';

/** Category ids 1-8 decide which service-data sections show (only 3 shows the implant ones). */
const CATEGORIES: Record<number, TranslatedName> = {
  1: { ptBR: 'Ortodontia', en: 'Orthodontics', es: 'Ortodoncia' },
  2: { ptBR: 'Estética do sorriso', en: 'Smile aesthetics', es: 'Estética de la sonrisa' },
  3: {
    ptBR: 'Cirurgia guiada de implantes',
    en: 'Guided implant surgery',
    es: 'Cirugía guiada de implantes',
  },
  4: { ptBR: 'Prótese', en: 'Prosthetics', es: 'Prótesis' },
  5: { ptBR: 'Periodontia', en: 'Periodontics', es: 'Periodoncia' },
  6: { ptBR: 'Endodontia', en: 'Endodontics', es: 'Endodoncia' },
  7: { ptBR: 'Cirurgia bucomaxilofacial', en: 'Maxillofacial surgery', es: 'Cirugía maxilofacial' },
  8: { ptBR: 'Outros serviços', en: 'Other services', es: 'Otros servicios' },
};

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

/** Product categories are reference data the spec's rules refer to by id; always present. */
export async function ensureReferenceData(db: Db): Promise<void> {
  await db
    .insert(productCategories)
    .values(Object.entries(CATEGORIES).map(([id, names]) => ({ id: Number(id), names })))
    .onConflictDoNothing();
}

/**
 * Demo data on an empty database (no users yet): one verified account per role with a complete
 * profile and the password `Dentflow123` (the doctor and the clinic in Portuguese with reais, the
 * others in English with dollars), products, kit manufacturers, the shop's data
 * (`seed-shop.ts`: sleeves, shipping table, coupons), an inactive announcement and about 30 demo
 * cases. With a storage the cases also get small sample photos and
 * STL files (a first `npm start`); without one (test templates) they get none. Returns whether it
 * seeded.
 */
export async function seedDemoData(db: Db, options: { storage?: Storage } = {}): Promise<boolean> {
  const [existing] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if ((existing?.count ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const now = new Date();
    const created = await tx
      .insert(users)
      .values(
        ROLES.map((role, index) => {
          const fname = role.charAt(0).toUpperCase() + role.slice(1);
          return {
            email: demoEmail(role),
            nickName: role,
            fname,
            lname: 'Demo',
            displayName: `${fname} Demo`,
            passwordHash,
            roles: [role],
            internal: ['admin', 'supervisor', 'planner', 'printer'].includes(role),
            verifiedAt: now,
            dataInfo: {
              bio: '',
              language: brazilianClient(role) ? ('ptBR' as const) : ('en' as const),
              currency: brazilianClient(role) ? ('BRL' as const) : ('USD' as const),
              location: '',
              platform: '',
              gender: '',
              birthDate: null,
              specialization: '',
              mobile: { number: `(11) 99999-00${String(index).padStart(2, '0')}`, whatsapp: false },
              typeOfDocument: 'none' as const,
              document: `DEMO-${role.toUpperCase()}`,
            },
            dataAddress: {
              zipCode: '01310-100',
              country: 'Brasil',
              state: 'SP',
              city: 'São Paulo',
              address: 'Avenida Paulista, 1000',
              complement: `Sala ${index + 1}`,
            },
            dataCapabilities: {
              physicalCreditCard: role === 'clinic',
              clinicPartner: role === 'clinic',
              instructorDiscount: 0,
              instructorId: null,
              dentalPrev: role === 'clinic',
            },
          };
        }),
      )
      .returning({
        id: users.id,
        nickName: users.nickName,
        dataCapabilities: users.dataCapabilities,
      });
    // The demo doctor is a student of the demo instructor, with a 10 % discount.
    const instructor = created.find((u) => u.nickName === 'instructor');
    const doctor = created.find((u) => u.nickName === 'doctor');
    if (instructor && doctor) {
      await tx
        .update(users)
        .set({
          dataCapabilities: {
            ...doctor.dataCapabilities,
            instructorId: instructor.id,
            instructorDiscount: 10,
          },
        })
        .where(sql`${users.id} = ${doctor.id}`);
    }
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
