import { and, inArray, isNull, sql } from 'drizzle-orm';
import { ROLES, type Role } from '@dentflow/domain';
import type { Db, DbOrTx } from '../../client';
import { users } from '../../schema';

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

/**
 * One verified account per role with a complete profile (the doctor and the clinic in Portuguese
 * with reais, the others in English with dollars); the demo doctor is a student of the demo
 * instructor with a 10 % discount.
 */
export async function seedDemoAccounts(tx: DbOrTx, passwordHash: string): Promise<void> {
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
            // The demo instructor's students save 10 %.
            instructorDiscount: role === 'instructor' ? 10 : 0,
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
  // The demo doctor is a student of the demo instructor, so saves the instructor's 10 %.
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
}
