import { z } from 'zod';
import { idParamSchema, idSchema } from '../common/bounds';
import {
  mayOnCase,
  membershipRoleOf,
  type CaseRecordFacts,
  type CaseRelation,
  type CaseViewer,
  type MembershipRole,
} from '../cases/case-access';

/**
 * Partners (a radiology centre, a lab) linked by an admin to clinics. A clinic may
 * add its linked partners to its own cases; staff may add anyone.
 */

/** The stored roles themselves, without the admin shortcut of the spec's predicates. */
export const hasClinicRole = (roles: readonly string[]) => roles.includes('clinic');
export const hasPartnerRole = (roles: readonly string[]) => roles.includes('partner');

export interface CaseUserAddition {
  viewer: CaseViewer;
  /** The caller's relation to the case. */
  relation: CaseRelation | null;
  record: CaseRecordFacts;
  /** Stored roles of the user to add. */
  addedRoles: readonly string[];
  /** That user is a partner linked to the case owner's clinic. */
  linkedToOwnerClinic: boolean;
}

/**
 * May the caller add this user to the case? Staff: anyone (the case's 'manageUsers' rule). A
 * clinic that owns the case ('addPartner'): only a partner linked to it, and not on an archived
 * case.
 */
export function mayAddCaseUser(addition: CaseUserAddition): boolean {
  const { viewer, relation, record } = addition;
  if (mayOnCase('manageUsers', viewer, relation, record)) return true;
  return (
    mayOnCase('addPartner', viewer, relation, record) &&
    hasPartnerRole(addition.addedRoles) &&
    addition.linkedToOwnerClinic
  );
}

/**
 * The role the membership an allowed addition grants comes from: staff add anyone, and the
 * membership comes from the added user's roles (`membershipRoleOf`); the owning clinic adds a
 * linked partner as a partner, so it ends with the partner role even if they are also a doctor.
 */
export function membershipRoleOfAddition(addition: CaseUserAddition): MembershipRole | null {
  const { viewer, relation, record } = addition;
  return mayOnCase('manageUsers', viewer, relation, record)
    ? membershipRoleOf(addition.addedRoles)
    : 'partner';
}

export interface CaseUserRemoval {
  viewer: CaseViewer;
  /** The caller's relation to the case. */
  relation: CaseRelation | null;
  record: CaseRecordFacts;
  /** Stored roles of the case user to remove. */
  removedRoles: readonly string[];
}

/**
 * May the caller remove this case user? Staff: anyone. The clinic that owns the case: a partner
 * only (linked or not any more: an unlinked partner must still be removable), not on an archived
 * case.
 */
export function mayRemoveCaseUser(removal: CaseUserRemoval): boolean {
  const { viewer, relation, record } = removal;
  if (mayOnCase('manageUsers', viewer, relation, record)) return true;
  return mayOnCase('addPartner', viewer, relation, record) && hasPartnerRole(removal.removedRoles);
}

/** `POST /partners/link`. */
export const partnerLinkBodySchema = z.object({ clinicId: idSchema, partnerId: idSchema });
export type PartnerLinkBody = z.infer<typeof partnerLinkBodySchema>;

/** `GET /partners?clinicId=` (the filter is for admins; a clinic always gets its own links). */
export const partnerListQuerySchema = z.object({
  clinicId: idParamSchema.optional(),
});

const linkedUserSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  email: z.string(),
});

/** One clinic–partner link. */
export const partnerLinkSchema = z.object({
  id: z.number().int(),
  clinic: linkedUserSchema,
  partner: linkedUserSchema,
  createdAt: z.string(),
});
export type PartnerLink = z.infer<typeof partnerLinkSchema>;
