import { isPatientValid, type Patient } from '../common/person';
import { areAttachmentsValid } from '../attachments/attachment';
import { areTransactionsValid } from '../payments/transaction';
import { isServiceDataValid } from './service-data';
import type { Attachment } from '../attachments/attachment';
import type { Transaction } from '../payments/transaction';
import type { CaseService } from './case-service';

/**
 * Spec §4 case checks, as pure functions over a case's parts: services' data valid; patient
 * valid; attachments valid when at least one is public; transactions valid when every
 * non-cancelled one is paid or pre-paid. A case with no services fails the services check.
 */
export const areServicesDataValid = (
  services: readonly Pick<CaseService, 'dataVersion' | 'data' | 'productCategoryId'>[],
) => services.length > 0 && services.every(isServiceDataValid);

export interface CaseCheckInput {
  patient: Partial<Patient> | null | undefined;
  services: readonly Pick<CaseService, 'dataVersion' | 'data' | 'productCategoryId'>[];
  attachments: readonly Pick<Attachment, 'status' | 'deletedAt'>[];
  transactions: readonly Pick<Transaction, 'paymentStatus'>[];
}

export interface CaseChecks {
  servicesData: boolean;
  patient: boolean;
  attachments: boolean;
  transactions: boolean;
}

export function caseChecks(input: CaseCheckInput): CaseChecks {
  return {
    servicesData: areServicesDataValid(input.services),
    patient: isPatientValid(input.patient),
    attachments: areAttachmentsValid(input.attachments),
    transactions: areTransactionsValid(input.transactions),
  };
}

export const allCaseChecksPass = (checks: CaseChecks) => Object.values(checks).every(Boolean);

/** The failing checks, for the case view to point at. */
export const failingCaseChecks = (checks: CaseChecks) =>
  (Object.keys(checks) as (keyof CaseChecks)[]).filter((key) => !checks[key]);
