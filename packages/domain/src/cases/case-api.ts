import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { CURRENCIES } from '../i18n/locale';
import { addressSchema } from '../common/address';
import {
  boundedIntSchema,
  codeSchema,
  idParamSchema,
  idSchema,
  pageSchema,
  pageSizeSchema,
} from '../common/bounds';
import { SERVICE_DATA_VERSION, TEXT_DIALOG_DEFAULT_LIMIT } from '../constants';
import { ARCHIVABLE_STATUSES, CASE_ACTIONS, CASE_LIST_FILTERS, CASE_STATUSES } from './case-status';
import { REVIEW_REASONS } from './case-review';
import { SERVICE_PAYMENT_STATES } from './service-payment';
import { ATTACHMENT_BUCKETS } from '../attachments/attachment';
import {
  CASE_PRODUCTION_ACTIONS,
  DISPATCH_KINDS,
  caseDeliverySchema,
  caseDispatchSchema,
  serviceManufactureSchema,
} from './case-production';

/**
 * The case API contract (`/api/v1/case/*`): request bodies, queries and the shapes of the answers.
 * Server routes validate with these schemas and the web client parses with them, so both sides
 * agree on one definition. Timestamps are ISO-8601 UTC strings; ids are integers.
 */

export const CASE_PAGE_SIZE_DEFAULT = 20;
export const CASE_PAGE_SIZE_MAX = 100;
export const CASE_OBSERVATION_MAX = 5000;
export const CASE_PATIENT_NOTE_MAX = 1000;
export const REVIEW_DESCRIPTION_MAX = 1000;
/** Approve and request-modification texts: the text dialog's default limit. */
export const CASE_MOVE_TEXT_LIMIT = TEXT_DIALOG_DEFAULT_LIMIT;

export const PATIENT_GENDERS = ['female', 'male', 'other'] as const;

/** The patient of a case: first and last name required; the rest optional. */
export const casePatientSchema = z.object({
  fname: z.string({ error: MESSAGE.required }).trim().min(1, MESSAGE.required).max(60, MESSAGE.max),
  lname: z.string({ error: MESSAGE.required }).trim().min(1, MESSAGE.required).max(60, MESSAGE.max),
  /** YYYY-MM-DD */
  birthDate: z.iso.date(MESSAGE.invalid).nullable().optional(),
  gender: z.enum(PATIENT_GENDERS, MESSAGE.invalid).nullable().optional(),
  note: z.string().max(CASE_PATIENT_NOTE_MAX, MESSAGE.max).nullable().optional(),
});
export type CasePatient = z.infer<typeof casePatientSchema>;

export const newCaseBodySchema = z.object({
  patient: casePatientSchema,
  observation: z.string().max(CASE_OBSERVATION_MAX, MESSAGE.max).optional(),
  /** The currency the case is charged in; default the owner's profile currency. */
  caseCurrency: z.enum(CURRENCIES, MESSAGE.invalid).optional(),
});
export type NewCaseBody = z.infer<typeof newCaseBodySchema>;

export const caseSetBodySchema = z.object({
  patient: casePatientSchema.optional(),
  observation: z.string().max(CASE_OBSERVATION_MAX, MESSAGE.max).optional(),
  address: addressSchema.nullable().optional(),
  /**
   * Another currency for the case: only while it has no live transaction (`mayChangeCaseCurrency`),
   * else 409 CASE_CURRENCY_LOCKED.
   */
  caseCurrency: z.enum(CURRENCIES, MESSAGE.invalid).optional(),
  /** The `modifiedAt` the client last read; a different stored one answers 409 CASE_CHANGED. */
  modifiedAt: z.string().min(1).max(40),
});
export type CaseSetBody = z.infer<typeof caseSetBodySchema>;

export const addServiceBodySchema = z.object({
  productId: idSchema,
  quantity: boundedIntSchema(1, 28).optional(),
});
export type AddServiceBody = z.infer<typeof addServiceBodySchema>;

export const serviceDataBodySchema = z.object({
  dataVersion: z.number().int().min(0).max(SERVICE_DATA_VERSION),
  data: z.unknown(),
});
export type ServiceDataBody = z.infer<typeof serviceDataBodySchema>;

export const PAYMENT_OVERRIDE_REASON_MAX = 500;
export const caseMoveBodySchema = z.object({
  action: z.enum(CASE_ACTIONS),
  password: z.string().max(200).optional(),
  text: z.string().max(CASE_MOVE_TEXT_LIMIT, MESSAGE.max).optional(),
  serviceIds: z.array(idSchema).max(100).optional(),
  /**
   * `validate` only, by a supervisor: validate although services are unpaid (bill later). The
   * reason is required; it goes to the history and the audit log with the unpaid amount.
   */
  paymentOverride: z
    .object({
      reason: z
        .string({ error: MESSAGE.required })
        .trim()
        .min(1, MESSAGE.required)
        .max(PAYMENT_OVERRIDE_REASON_MAX, MESSAGE.max),
    })
    .optional(),
});
export type CaseMoveBody = z.infer<typeof caseMoveBodySchema>;

export const caseUserBodySchema = z.object({
  userId: idSchema,
  triggerNotification: z.boolean(),
});
export const casePlannerBodySchema = z.object({
  plannerId: idSchema,
  /** Default: every service of the case. */
  serviceIds: z.array(idSchema).max(100).optional(),
});
const REVIEW_REASON_IDS = Object.values(REVIEW_REASONS) as number[];
export const caseReviewBodySchema = z.object({
  reasonId: codeSchema(REVIEW_REASON_IDS).optional(),
  description: z
    .string({ error: MESSAGE.required })
    .trim()
    .min(1, MESSAGE.required)
    .max(REVIEW_DESCRIPTION_MAX, MESSAGE.max),
});

export const caseListParamsSchema = z.object({
  filter: z.enum(CASE_LIST_FILTERS),
  page: pageSchema,
});
/** Where a case-list search looks: the list's own status filter, or every list. */
export const CASE_SEARCH_SCOPES = ['filter', 'all'] as const;
export type CaseSearchScope = (typeof CASE_SEARCH_SCOPES)[number];

export const caseListQuerySchema = z.object({
  q: z.string().trim().max(120).optional(),
  /** 'all': the search looks in every list (not archived); ignored without a search text. */
  scope: z.enum(CASE_SEARCH_SCOPES).default('filter'),
  pageSize: pageSizeSchema(CASE_PAGE_SIZE_MAX).default(CASE_PAGE_SIZE_DEFAULT),
});
export const archiveQuerySchema = z.object({
  patient: z.string().trim().max(120).optional(),
  /** YYYY-MM-DD, on the case's creation date (inclusive). */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  category: idParamSchema.optional(),
  product: idParamSchema.optional(),
  currency: z.enum(CURRENCIES).optional(),
  /** The case's status: one an archived case can have (finished, closed, cancelled). */
  status: z.enum(ARCHIVABLE_STATUSES).optional(),
  pageSize: pageSizeSchema(CASE_PAGE_SIZE_MAX).default(CASE_PAGE_SIZE_DEFAULT),
});

const userRefSchema = z.object({ id: z.number().int(), displayName: z.string() });

/** One row of a case list. */
export const casePreviewSchema = z.object({
  id: z.number().int(),
  patient: z.object({ fname: z.string(), lname: z.string() }),
  caseStatus: z.enum(CASE_STATUSES),
  caseArchived: z.boolean(),
  caseCurrency: z.enum(CURRENCIES),
  owner: userRefSchema,
  services: z.array(
    z.object({ id: z.number().int(), productName: z.string(), category: z.number().int() }),
  ),
  createdAt: z.string(),
  deadlineAt: z.string().nullable(),
  modifiedAt: z.string(),
  /** An unsolved review exists. */
  review: z.boolean(),
  /** The caller's unseen notifications of this case (the list's badge). */
  unseen: z.number().int().min(0),
  /** The order has left ('shipped') or waits for a local withdraw ('readyForPickup'). */
  dispatch: z.enum(DISPATCH_KINDS).nullable(),
});
export type CasePreview = z.infer<typeof casePreviewSchema>;

export const casePageSchema = z.object({
  items: z.array(casePreviewSchema),
  total: z.number().int(),
  /**
   * A searched list counts at most SEARCH_TOTAL_CAP matches: true when there are more, and
   * `total` is then the cap (shown as "1,000+"). Absent or false: `total` is exact.
   */
  totalCapped: z.boolean().optional(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CasePage = z.infer<typeof casePageSchema>;

export const caseCountsSchema = z.record(z.enum(CASE_LIST_FILTERS), z.number().int());
export type CaseCounts = z.infer<typeof caseCountsSchema>;

export const caseServiceDetailSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  /** The combo this service came from, if any. */
  serviceId: z.number().int().nullable(),
  productCategoryId: z.number().int(),
  productName: z.string(),
  productKind: z.number().int(),
  qtdOption: z.number().int(),
  qtdMax: z.number().int(),
  manufactureTime: z.number().int(),
  quantity: z.number().int(),
  printableProduct: z.boolean(),
  planner: userRefSchema.nullable(),
  approveRequestAt: z.string().nullable(),
  approveAt: z.string().nullable(),
  /** Paid by a transaction (payments): it can no longer be removed. */
  paid: z.boolean(),
  /** Paid, awaiting payment, deferred by a supervisor (bill later) or unpaid (no transaction). */
  payment: z.enum(SERVICE_PAYMENT_STATES),
  dataVersion: z.number().int(),
  data: z.unknown(),
  /** `data` passes the rules of its layout and category. */
  dataValid: z.boolean(),
  /** What to make (sleeves, kit, elements); null for a planning service. */
  manufacture: serviceManufactureSchema.nullable(),
});
export type CaseServiceDetail = z.infer<typeof caseServiceDetailSchema>;

export const caseMemberSchema = z.object({
  userId: z.number().int(),
  displayName: z.string(),
  roles: z.array(z.string()),
  triggerNotification: z.boolean(),
});
export type CaseMember = z.infer<typeof caseMemberSchema>;

export const caseReviewDetailSchema = z.object({
  id: z.number().int(),
  reasonId: z.number().int().nullable(),
  description: z.string(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
  solvedAt: z.string().nullable(),
  solvedBy: userRefSchema.nullable(),
  /** Open, and this caller may mark it solved (the domain's `maySolveReview`). */
  canSolve: z.boolean(),
});
export type CaseReviewDetail = z.infer<typeof caseReviewDetailSchema>;

/**
 * Moves beside the status machine that the case view offers as buttons. `addPartner`: the owning
 * clinic adds and removes its linked partners (staff manage every case user anyway).
 * `changeCurrency`: whoever may edit the case, while it has no live transaction
 * (`mayChangeCaseCurrency`; the case read adds it).
 */
export const CASE_EXTRA_ACTIONS = [
  'archive',
  'unarchive',
  'edit',
  'addService',
  'addPartner',
  /** The owner orders more for the case in the shop (a case upgrade past 'checkingout'). */
  'order',
  /** A supervisor validates the case with unpaid services, naming a reason. */
  'validateUnpaid',
  /** Change the case's currency (no live transaction yet). */
  'changeCurrency',
] as const;
export const caseDetailSchema = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  owner: userRefSchema,
  caseStatus: z.enum(CASE_STATUSES),
  caseArchived: z.boolean(),
  caseReview: z.boolean(),
  caseCurrency: z.enum(CURRENCIES),
  patient: casePatientSchema,
  address: addressSchema.nullable(),
  observation: z.string(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  deadlineAt: z.string().nullable(),
  finishAt: z.string().nullable(),
  services: z.array(caseServiceDetailSchema),
  users: z.array(caseMemberSchema),
  reviews: z.array(caseReviewDetailSchema),
  checks: z.object({
    services: z.boolean(),
    patient: z.boolean(),
    attachments: z.boolean(),
    transactions: z.boolean(),
    /** Required file slots without a public file. */
    missingSlots: z.array(
      z.object({ bucketName: z.enum(ATTACHMENT_BUCKETS), attachmentType: z.string() }),
    ),
    /** Services that may not be made yet: neither paid nor deferred. */
    unpaidServiceIds: z.array(z.number().int()),
  }),
  /** The status moves this caller may make now. */
  actions: z.array(z.enum(CASE_ACTIONS)),
  /** Other things this caller may do now. */
  can: z.array(z.enum(CASE_EXTRA_ACTIONS)),
  /** The caller may only read (an instructor on a student's case, a printer, a partner). */
  readOnly: z.boolean(),
  /** How the order goes (money only for those who see the transactions); null when nothing ships. */
  delivery: caseDeliverySchema.nullable(),
  /** The dispatch once recorded. */
  dispatch: caseDispatchSchema.nullable(),
  /** Production operations this caller may do now (`caseProductionActions`). */
  productionActions: z.array(z.enum(CASE_PRODUCTION_ACTIONS)),
});
export type CaseDetail = z.infer<typeof caseDetailSchema>;

export const caseEventSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  at: z.string(),
  actor: userRefSchema.nullable(),
  /** A case action, or one of: created, updated, serviceAdded, serviceRemoved, serviceData,
   * userAdded, userRemoved, userNotificationsSet, plannerSet, reviewOpened, reviewSolved, archived, unarchived,
   * dispatched. */
  action: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type CaseEvent = z.infer<typeof caseEventSchema>;
