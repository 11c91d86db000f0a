import { isPatientValid, type Patient } from '../common/person';
import { JAWS, isServiceDataValid } from './service-data';
import { isOneOf } from '../common/one-of';
import {
  emptyRequiredSlots,
  requiredAttachmentSlots,
  type AttachmentSlot,
} from '../attachments/attachment-rules';
import { areServicesCovered, uncoveredServices, type ServicePaymentFacts } from './service-payment';
import type { CaseService } from './case-service';

/**
 * The case checks that validation (a supervisor's or the automatic move when the case is paid)
 * needs to pass:
 * - services: there is at least one and every service's data is complete;
 * - patient: first and last name;
 * - attachments: the client sent at least one public file, and every required slot of the case's
 *   services (docs/decisions/012) holds a public file;
 * - transactions: every service belongs to a paid or pre-paid transaction, or a supervisor
 *   deferred its payment (`service-payment.ts`).
 */
export const areServicesDataValid = (
  services: readonly Pick<CaseService, 'dataVersion' | 'data' | 'productCategoryId'>[],
) => services.length > 0 && services.every(isServiceDataValid);

type CheckedService = Pick<CaseService, 'dataVersion' | 'data' | 'productCategoryId'> &
  ServicePaymentFacts;

export interface CaseCheckInput {
  patient: Partial<Patient> | null | undefined;
  services: readonly CheckedService[];
  /** The slots of the case's public, non-deleted files. */
  publicFiles: readonly AttachmentSlot[];
  /** The client (the case owner) has a public file among them. */
  hasClientFile: boolean;
}

export interface CaseChecks {
  services: boolean;
  patient: boolean;
  attachments: boolean;
  transactions: boolean;
}

/** What the failing checks are about, for the case page to name. */
export interface CaseCheckDetails {
  /** Required slots with no public file. */
  missingSlots: AttachmentSlot[];
  /** Services that may not be made yet (not paid, not deferred). */
  unpaidServiceIds: number[];
}

/**
 * The required file slots of a case from its services: their categories, and the jaw when the
 * services that choose one agree on a single one.
 */
export function caseRequiredSlots(
  services: readonly Pick<CaseService, 'productCategoryId' | 'data'>[],
): AttachmentSlot[] {
  const jaws = new Set(
    services
      .map((service) => (service.data as { jaw?: unknown } | null)?.jaw)
      .filter((jaw) => isOneOf(JAWS, jaw)),
  );
  const jaw = jaws.size === 1 ? [...jaws][0] : null;
  return requiredAttachmentSlots(
    services.map((service) => service.productCategoryId),
    jaw,
  );
}

export function caseChecks(input: CaseCheckInput): CaseChecks & CaseCheckDetails {
  const missingSlots = emptyRequiredSlots(caseRequiredSlots(input.services), input.publicFiles);
  return {
    services: areServicesDataValid(input.services),
    patient: isPatientValid(input.patient),
    attachments: input.hasClientFile && missingSlots.length === 0,
    transactions: areServicesCovered(input.services),
    missingSlots,
    unpaidServiceIds: uncoveredServices(input.services).map((service) => service.id),
  };
}

/** The checks in the order the case page lists them; each is also its label's key (`domain:caseChecks.*`). */
export const CASE_CHECK_KEYS = [
  'services',
  'patient',
  'attachments',
  'transactions',
] as const satisfies readonly (keyof CaseChecks)[];

export const allCaseChecksPass = (checks: CaseChecks) =>
  CASE_CHECK_KEYS.every((key) => checks[key]);

/** The failing checks, for the case view to point at. */
export const failingCaseChecks = (checks: CaseChecks) =>
  CASE_CHECK_KEYS.filter((key) => !checks[key]);

/**
 * A supervisor may validate a case whose only failing check is payment, by naming a reason
 * (the override defers those services' payment; it is never automatic).
 */
export const onlyPaymentFails = (checks: CaseChecks) => {
  const failing = failingCaseChecks(checks);
  return failing.length === 1 && failing[0] === 'transactions';
};
