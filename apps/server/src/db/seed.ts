import { sql } from 'drizzle-orm';
import { ROLES, type Role } from '@dentflow/domain';
import { hashPassword } from '../security/passwords';
import type { Db } from './client';
import type { Storage } from '../adapters/storage/storage';
import { seedDemoCases } from './seed-cases';
import {
  announcements,
  coupons,
  productCategories,
  products,
  surgicalKitManufacturers,
  users,
  type ProductTexts,
  type TranslatedName,
} from './schema';

export const DEMO_PASSWORD = 'Dentflow123';
export const demoEmail = (role: Role) => `${role}@dentflow.local`;

/** Spec §3: category ids 1-8 decide which service-data sections show (only 3 shows the implant ones). */
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

/** ptBR prices in BRL cents, en/es prices in USD cents (spec §1 currency by language). */
function texts(
  names: TranslatedName,
  descriptions: TranslatedName,
  brlCents: number,
  usdCents: number,
): ProductTexts {
  const text = (lang: keyof TranslatedName, price: number) => ({
    name: names[lang],
    description: descriptions[lang],
    price,
    discount: 0,
    publish: true,
  });
  return { ptBR: text('ptBR', brlCents), en: text('en', usdCents), es: text('es', usdCents) };
}

const PRODUCTS: (typeof products.$inferInsert)[] = [
  {
    code: 'PLAN-GUIDE',
    productCategoryId: 3,
    productKind: 1,
    qtdOption: 2,
    qtdMax: 2,
    favorite: true,
    price: 45000,
    texts: texts(
      {
        ptBR: 'Planejamento de guia cirúrgico',
        en: 'Surgical guide planning',
        es: 'Planificación de guía quirúrgica',
      },
      {
        ptBR: 'Planejamento digital da cirurgia de implantes com guia, por arcada.',
        en: 'Digital planning of guided implant surgery, per arch.',
        es: 'Planificación digital de la cirugía guiada de implantes, por arcada.',
      },
      45000,
      9000,
    ),
  },
  {
    code: 'PLAN-SMILE',
    productCategoryId: 2,
    productKind: 1,
    qtdOption: 1,
    price: 30000,
    texts: texts(
      {
        ptBR: 'Planejamento digital do sorriso',
        en: 'Digital smile design',
        es: 'Diseño digital de la sonrisa',
      },
      {
        ptBR: 'Planejamento estético do sorriso com simulação digital.',
        en: 'Aesthetic smile planning with a digital simulation.',
        es: 'Planificación estética de la sonrisa con simulación digital.',
      },
      30000,
      6000,
    ),
  },
  {
    code: 'PLAN-ORTHO',
    productCategoryId: 1,
    productKind: 1,
    qtdOption: 1,
    price: 25000,
    texts: texts(
      {
        ptBR: 'Planejamento ortodôntico',
        en: 'Orthodontic planning',
        es: 'Planificación ortodóntica',
      },
      {
        ptBR: 'Setup ortodôntico digital para alinhadores.',
        en: 'Digital orthodontic setup for aligners.',
        es: 'Setup ortodóntico digital para alineadores.',
      },
      25000,
      5000,
    ),
  },
  {
    code: 'MFG-GUIDE',
    productCategoryId: 3,
    productKind: 2,
    qtdOption: 2,
    qtdMax: 2,
    kindOfManufacture: 1,
    manufactureTime: 3,
    enableKit: true,
    enableSleeve: true,
    shipping: true,
    price: 35000,
    texts: texts(
      {
        ptBR: 'Guia cirúrgico impresso',
        en: 'Printed surgical guide',
        es: 'Guía quirúrgica impresa',
      },
      {
        ptBR: 'Impressão 3D do guia cirúrgico planejado, com envio.',
        en: '3D printing of the planned surgical guide, shipped to you.',
        es: 'Impresión 3D de la guía quirúrgica planificada, con envío.',
      },
      35000,
      7000,
    ),
  },
  {
    code: 'MFG-MOCKUP',
    productCategoryId: 2,
    productKind: 2,
    qtdOption: 3,
    qtdMax: 14,
    kindOfManufacture: 3,
    mockup: true,
    shipping: true,
    price: 4000,
    texts: texts(
      { ptBR: 'Mock-up impresso', en: 'Printed mock-up', es: 'Mock-up impreso' },
      {
        ptBR: 'Mock-up impresso por elemento dental.',
        en: 'Printed mock-up, priced per tooth.',
        es: 'Mock-up impreso, precio por diente.',
      },
      4000,
      800,
    ),
  },
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
 * profile and the password `Dentflow123`, products, kit manufacturers, a coupon, an inactive
 * announcement and about 30 demo cases. With a storage the cases also get small sample photos and
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
              language: 'en' as const,
              currency: 'USD' as const,
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
              dentalPrev: false,
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
    const inserted = await tx.insert(products).values(PRODUCTS).onConflictDoNothing().returning();
    const guidePlanning = inserted.find((p) => p.code === 'PLAN-GUIDE');
    const guidePrinting = inserted.find((p) => p.code === 'MFG-GUIDE');
    if (guidePlanning && guidePrinting) {
      await tx
        .insert(products)
        .values({
          code: 'COMBO-GUIDE',
          productType: 2,
          productCategoryId: 3,
          productKind: 1,
          qtdOption: 2,
          qtdMax: 2,
          innerProducts: [guidePlanning.id, guidePrinting.id],
          enableKit: true,
          enableSleeve: true,
          shipping: true,
          price: 80000,
          discount: 10,
          texts: texts(
            {
              ptBR: 'Combo guia cirúrgico',
              en: 'Surgical guide combo',
              es: 'Combo guía quirúrgica',
            },
            {
              ptBR: 'Planejamento e impressão do guia cirúrgico, com 10% de desconto no planejamento.',
              en: 'Planning and printing of the surgical guide, 10% off the planning.',
              es: 'Planificación e impresión de la guía quirúrgica, con 10% de descuento en la planificación.',
            },
            80000,
            16000,
          ),
        })
        .onConflictDoNothing();
    }
    await tx.insert(surgicalKitManufacturers).values(KIT_MANUFACTURERS).onConflictDoNothing();
    await tx
      .insert(coupons)
      .values({ code: 'WELCOME10', coupomType: 1, value: 10, active: true, maxUsage: 1000 })
      .onConflictDoNothing();
    await tx.insert(announcements).values({
      active: false,
      title: 'Scheduled maintenance',
      body: 'Dentflow will be unavailable on Sunday from 02:00 to 04:00 (UTC) for maintenance.',
    });
    await seedDemoCases(tx, { storage: options.storage });
  });
  return true;
}
