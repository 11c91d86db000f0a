import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { clinicPartners, users } from '../../db/schema';

const clinicUser = alias(users, 'clinic_user');
const partnerUser = alias(users, 'partner_user');

export interface PartnerLinkRow {
  id: number;
  createdAt: Date;
  clinicId: number;
  clinicName: string;
  clinicEmail: string;
  partnerId: number;
  partnerName: string;
  partnerEmail: string;
}

function selectLinks(db: DbOrTx) {
  return db
    .select({
      id: clinicPartners.id,
      createdAt: clinicPartners.createdAt,
      clinicId: clinicPartners.clinicId,
      clinicName: clinicUser.displayName,
      clinicEmail: clinicUser.email,
      partnerId: clinicPartners.partnerId,
      partnerName: partnerUser.displayName,
      partnerEmail: partnerUser.email,
    })
    .from(clinicPartners)
    .innerJoin(clinicUser, eq(clinicUser.id, clinicPartners.clinicId))
    .innerJoin(partnerUser, eq(partnerUser.id, clinicPartners.partnerId));
}

/**
 * The links, of one clinic when `clinicId` is given, by clinic then partner name. Links to a
 * deleted account are left out (deletion keeps the rows, the person is gone).
 */
export async function listPartnerLinks(
  db: DbOrTx,
  clinicId: number | undefined,
): Promise<PartnerLinkRow[]> {
  return selectLinks(db)
    .where(
      and(
        clinicId === undefined ? undefined : eq(clinicPartners.clinicId, clinicId),
        isNull(clinicUser.deletedAt),
        isNull(partnerUser.deletedAt),
      ),
    )
    .orderBy(
      asc(sql`lower(${clinicUser.displayName})`),
      asc(sql`lower(${partnerUser.displayName})`),
    )
    .limit(2000);
}

/** The links a user is on, as the clinic or as the partner (live accounts only). */
export async function listPartnerLinksOf(db: DbOrTx, userId: number): Promise<PartnerLinkRow[]> {
  return selectLinks(db)
    .where(
      and(
        or(eq(clinicPartners.clinicId, userId), eq(clinicPartners.partnerId, userId)),
        isNull(clinicUser.deletedAt),
        isNull(partnerUser.deletedAt),
      ),
    )
    .orderBy(
      asc(sql`lower(${clinicUser.displayName})`),
      asc(sql`lower(${partnerUser.displayName})`),
    )
    .limit(2000);
}

export async function findPartnerLink(db: DbOrTx, id: number): Promise<PartnerLinkRow | null> {
  const [row] = await selectLinks(db).where(eq(clinicPartners.id, id)).limit(1);
  return row ?? null;
}

export async function findPartnerLinkByPair(
  db: DbOrTx,
  clinicId: number,
  partnerId: number,
): Promise<PartnerLinkRow | null> {
  const [row] = await selectLinks(db)
    .where(and(eq(clinicPartners.clinicId, clinicId), eq(clinicPartners.partnerId, partnerId)))
    .limit(1);
  return row ?? null;
}

/** Inserts the link; null when the pair is linked already (concurrent requests included). */
export async function insertPartnerLink(
  db: DbOrTx,
  values: { clinicId: number; partnerId: number; createdBy: number },
): Promise<number | null> {
  const [row] = await db
    .insert(clinicPartners)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: clinicPartners.id });
  return row?.id ?? null;
}

export async function deletePartnerLink(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .delete(clinicPartners)
    .where(eq(clinicPartners.id, id))
    .returning({ id: clinicPartners.id });
  return rows.length > 0;
}

/** A user that may be linked: roles and whether the account is verified and not deleted. */
export async function findLinkableUser(
  db: DbOrTx,
  id: number,
): Promise<{ id: number; roles: string[]; active: boolean } | null> {
  const [row] = await db
    .select({
      id: users.id,
      roles: users.roles,
      verifiedAt: users.verifiedAt,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    roles: row.roles,
    active: row.verifiedAt !== null && row.deletedAt === null,
  };
}

/** A link of this partner (not deleted) to this clinic exists. */
export async function hasActivePartnerLink(
  db: DbOrTx,
  clinicId: number,
  partnerId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: clinicPartners.id })
    .from(clinicPartners)
    .innerJoin(partnerUser, eq(partnerUser.id, clinicPartners.partnerId))
    .where(
      and(
        eq(clinicPartners.clinicId, clinicId),
        eq(clinicPartners.partnerId, partnerId),
        isNull(partnerUser.deletedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}
