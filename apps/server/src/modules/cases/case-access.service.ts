import {
  caseRelation,
  isCaseStaff,
  isReadOnlyRelation,
  type CaseRelation,
  type CaseVisibilityFacts,
  type Language,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { findCaseVisibilityFacts, lockCaseForChange } from './case-visibility.repository';
import type { CaseServiceWithProduct } from './case-detail.repository';
import type { CaseRow } from './cases.repository';

/** What a caller may know about a case before reading or changing it (files, chat, payments). */
export interface CaseAccess {
  caseId: number;
  ownerId: number;
  caseStatus: string;
  caseArchived: boolean;
  /** Why the caller sees the case (domain `caseRelation`). */
  relation: CaseRelation;
  /** The caller may only read (domain `isReadOnlyRelation`). */
  readOnly: boolean;
  /** Supervisor or admin. */
  isStaff: boolean;
}

/**
 * The caller's access to a case, or null when the caller cannot see it (or it does not exist):
 * answer 404 then, so a hidden case and a missing one look the same. With `lock` (inside a
 * transaction) the case row stays locked until the transaction ends.
 */
export async function loadCaseAccess(
  db: DbOrTx,
  caller: Pick<AuthContext, 'userId' | 'roles'>,
  caseId: number,
  options: { lock?: boolean } = {},
): Promise<CaseAccess | null> {
  const facts = await findCaseVisibilityFacts(db, caseId, options);
  return facts ? caseAccessOf(caller, caseId, facts) : null;
}

/**
 * The start of a change: the case row locked (until the transaction ends), the caller's access
 * to it, the statuses of its transactions and its services (product names in `language`), in one
 * statement; null when the caller cannot see it or it does not exist.
 */
export async function lockCaseAccess(
  tx: DbOrTx,
  caller: Pick<AuthContext, 'userId' | 'roles'>,
  caseId: number,
  language: Language,
): Promise<{
  access: CaseAccess;
  row: CaseRow;
  transactionStatuses: string[];
  services: CaseServiceWithProduct[];
} | null> {
  const locked = await lockCaseForChange(tx, caseId, language);
  const access =
    locked &&
    caseAccessOf(caller, caseId, { ...locked.facts, caseArchived: locked.row.caseArchived });
  return access ? { ...locked, access } : null;
}

/** The caller's access to a case they must see: 404 when hidden or missing. */
export async function requireCaseAccess(
  db: DbOrTx,
  caller: Pick<AuthContext, 'userId' | 'roles'>,
  caseId: number,
): Promise<CaseAccess> {
  const access = await loadCaseAccess(db, caller, caseId);
  if (!access) throw new AppError(404, 'NOT_FOUND');
  return access;
}

/**
 * What decides who sees a case and in which role (the domain's `caseRelation` and the chat's
 * channel rules read it), or undefined when the case does not exist.
 */
export const loadCaseVisibilityFacts = (db: DbOrTx, caseId: number) =>
  findCaseVisibilityFacts(db, caseId);

/** The caller's access from facts already read (the case read fetches them with the case). */
export function caseAccessOf(
  caller: Pick<AuthContext, 'userId' | 'roles'>,
  caseId: number,
  facts: CaseVisibilityFacts & { caseArchived: boolean },
): CaseAccess | null {
  const viewer = { userId: caller.userId, roles: caller.roles };
  const relation = caseRelation(viewer, facts);
  if (relation === null) return null;
  return {
    caseId,
    ownerId: facts.ownerId,
    caseStatus: facts.caseStatus,
    caseArchived: facts.caseArchived,
    relation,
    readOnly: isReadOnlyRelation(relation),
    isStaff: isCaseStaff(viewer),
  };
}
