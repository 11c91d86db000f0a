import {
  caseChecks,
  isServiceCovered,
  type CaseProductionFacts,
  type CaseViewer,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import type { AuthContext } from '../../http/permissions';
import {
  findCaseFileFacts,
  findPatient,
  type CaseServiceWithProduct,
  type FileSlot,
} from './case-detail.repository';
import type { CaseRow, CaseServiceRow } from './cases.repository';

/**
 * The facts the domain's case rules read, taken from stored rows: shared by the case read, the
 * moves and the lifecycle calls so each rule is fed the same way everywhere.
 */

/** Who calls a case operation. */
export type CaseCaller = Pick<AuthContext, 'userId' | 'roles' | 'ip'>;

export const viewerOf = (caller: CaseCaller): CaseViewer => ({
  userId: caller.userId,
  roles: caller.roles,
});

/** A service row as the case checks read it: its transaction's status and the deferral. */
export const paymentFactsOf = (service: {
  id: number;
  transactionStatus: string | null;
  paymentDeferredAt: Date | null;
}) => ({
  id: service.id,
  transactionStatus: service.transactionStatus,
  paymentDeferred: service.paymentDeferredAt !== null,
});

/** A service that may be made and whose approval was not requested yet. */
export const isAwaitingApprovalRequest = (service: {
  id: number;
  approveRequestAt: Date | null;
  transactionStatus: string | null;
  paymentDeferredAt: Date | null;
}) => service.approveRequestAt === null && isServiceCovered(paymentFactsOf(service));

/** The domain's case checks from what the case read or a move's transaction found. */
export function checksOf(input: {
  services: readonly (Pick<CaseServiceRow, 'dataVersion' | 'data' | 'productCategoryId'> & {
    id: number;
    transactionStatus: string | null;
    paymentDeferredAt: Date | null;
  })[];
  patient: { fname: string; lname: string } | null | undefined;
  hasClientFile: boolean;
  publicFiles: readonly FileSlot[];
}) {
  const { patient } = input;
  return caseChecks({
    services: input.services.map((service) => ({ ...service, ...paymentFactsOf(service) })),
    patient: patient ? { fname: patient.fname, lname: patient.lname } : null,
    hasClientFile: input.hasClientFile,
    publicFiles: input.publicFiles,
  });
}

/** The case checks inside a move's transaction. */
export async function caseChecksOf(
  tx: DbOrTx,
  row: CaseRow,
  services: readonly CaseServiceWithProduct[],
) {
  // One after another: a transaction is one connection, which runs one query at a time anyway.
  const patient = await findPatient(tx, row.patientId);
  return checksOf({ services, patient, ...(await findCaseFileFacts(tx, row.id)) });
}

/** What the dispatch and address rules read about a case. */
export const productionFactsOf = (row: CaseRow): CaseProductionFacts => ({
  caseStatus: row.caseStatus,
  caseArchived: row.caseArchived,
  hasPrintable: row.hasPrintable,
  dispatched: row.dispatch !== null,
});
