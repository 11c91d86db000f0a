import {
  hasClinicRole,
  hasPartnerRole,
  isAdmin,
  type PartnerLink,
  type PartnerLinkBody,
} from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { writeAudit } from '../audit';
import {
  deletePartnerLink,
  findLinkableUser,
  findPartnerLink,
  findPartnerLinkByPair,
  hasActivePartnerLink,
  insertPartnerLink,
  listPartnerLinks,
  listPartnerLinksOf,
  type PartnerLinkRow,
} from './partners.repository';

const toPartnerLink = (row: PartnerLinkRow): PartnerLink => ({
  id: row.id,
  clinic: { id: row.clinicId, displayName: row.clinicName, email: row.clinicEmail },
  partner: { id: row.partnerId, displayName: row.partnerName, email: row.partnerEmail },
  createdAt: row.createdAt.toISOString(),
});

/**
 * The partner is linked to the clinic: a clinic owning a case may add only such a partner to it
 * (the cases module asks, in the transaction of the addition).
 */
export const isPartnerLinkedToClinic = (
  db: DbOrTx,
  clinicId: number,
  partnerId: number,
): Promise<boolean> => hasActivePartnerLink(db, clinicId, partnerId);

/** Clinic–partner links, managed by admins and read by the clinics. */
export function createPartnersService(ctx: AppContext) {
  const { db } = ctx;

  return {
    /** Admins: every link (or one clinic's); a clinic: its own links, whatever it asks for. */
    async list(caller: AuthContext, clinicId: number | undefined): Promise<PartnerLink[]> {
      const scope = isAdmin(caller.roles) ? clinicId : caller.userId;
      return (await listPartnerLinks(db, scope)).map(toPartnerLink);
    },

    /** The caller's own links, as the clinic or as the partner (the profile's Connections tab). */
    async mine(userId: number): Promise<PartnerLink[]> {
      return (await listPartnerLinksOf(db, userId)).map(toPartnerLink);
    },

    /**
     * Links a partner to a clinic: both accounts verified and not deleted, one with the clinic
     * role and the other with the partner role. Linking a linked pair again answers the link.
     */
    async link(
      actorUserId: number,
      body: PartnerLinkBody,
      meta: RequestMeta,
    ): Promise<PartnerLink> {
      const id = await db.transaction(async (tx) => {
        const clinic = await findLinkableUser(tx, body.clinicId);
        const partner = await findLinkableUser(tx, body.partnerId);
        const errors: Record<string, string> = {};
        if (!clinic?.active || !hasClinicRole(clinic.roles)) errors.clinicId = 'validation.invalid';
        if (
          !partner?.active ||
          !hasPartnerRole(partner.roles) ||
          body.partnerId === body.clinicId
        ) {
          errors.partnerId = 'validation.invalid';
        }
        if (Object.keys(errors).length > 0) throw validationError(errors);
        const inserted = await insertPartnerLink(tx, { ...body, createdBy: actorUserId });
        if (inserted === null) {
          return (await findPartnerLinkByPair(tx, body.clinicId, body.partnerId))!.id;
        }
        await writeAudit(tx, {
          actorUserId,
          action: 'partner.link',
          entity: 'clinic_partner',
          entityId: inserted,
          details: { before: null, after: body },
          ip: meta.ip,
        });
        return inserted;
      });
      return toPartnerLink((await findPartnerLink(db, id))!);
    },

    async unlink(actorUserId: number, id: number, meta: RequestMeta): Promise<{ id: number }> {
      await db.transaction(async (tx) => {
        const link = await findPartnerLink(tx, id);
        if (!link || !(await deletePartnerLink(tx, id))) throw new AppError(404, 'NOT_FOUND');
        await writeAudit(tx, {
          actorUserId,
          action: 'partner.unlink',
          entity: 'clinic_partner',
          entityId: id,
          details: { before: { clinicId: link.clinicId, partnerId: link.partnerId }, after: null },
          ip: meta.ip,
        });
      });
      return { id };
    },
  };
}

export type PartnersService = ReturnType<typeof createPartnersService>;
