import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Address, DispatchKind, MembershipRole } from '@dentflow/domain';
import { users } from './accounts';
import { products } from './catalog';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A recorded dispatch as stored (`recordedBy` a user id, `recordedAt` ISO). */
export interface StoredCaseDispatch {
  kind: DispatchKind;
  /** YYYY-MM-DD */
  date: string;
  carrier: string | null;
  trackingCode: string | null;
  recordedAt: string;
  recordedBy: number;
}

/** Patient of a case (first and last name required). One patient row per case. */
export const patients = pgTable('patients', {
  id: serial('id').primaryKey(),
  fname: text('fname').notNull(),
  lname: text('lname').notNull(),
  birthDate: date('birth_date', { mode: 'string' }),
  gender: text('gender'),
  note: text('note'),
});

/**
 * Case. Besides the spec's fields:
 * - `listGroup` is the list filter the status belongs to in the broad sense ('new' for new,
 *   revision and checkingout; 'finished' for finished and closed; the status itself for the
 *   others, cancelled included; null for the legacy 'archive' status), kept by the service on every
 *   move, so a list reads its page straight from an index instead of sorting every match;
 * - `searchText` is the patient's name folded (lower case, no accents) for the list search;
 * - `hasPrintable` mirrors "a service is a printable product" (printers' visibility);
 * - `caseReview` mirrors "an unsolved review exists";
 * - `dispatch` is the order's dispatch once recorded (written once; docs/domain.md).
 */
export const cases = pgTable(
  'cases',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    patientId: integer('patient_id')
      .notNull()
      .references(() => patients.id),
    caseStatus: text('case_status').notNull().default('new'),
    listGroup: text('list_group'),
    caseArchived: boolean('case_archived').notNull().default(false),
    caseReview: boolean('case_review').notNull().default(false),
    hasPrintable: boolean('has_printable').notNull().default(false),
    address: jsonb('address').$type<Address>(),
    observation: text('observation').notNull().default(''),
    caseCurrency: text('case_currency').notNull(),
    searchText: text('search_text').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
    modifiedAt: at('modified_at').notNull().defaultNow(),
    validatedAt: at('validated_at'),
    deadlineAt: at('deadline_at'),
    finishAt: at('finish_at'),
    dispatch: jsonb('dispatch').$type<StoredCaseDispatch>(),
  },
  // NULLS FIRST is what a plain `ORDER BY modified_at DESC, id DESC` means: with drizzle's default
  // (DESC NULLS LAST) PostgreSQL cannot read a list page in index order and sorts every match
  // (npm run bench: 24 ms → 0.3 ms for a supervisor's page at 100,000 cases; docs/performance.md).
  (t) => [
    // `search_text` trails the staff list indexes so a searched page and its capped total are
    // index-only walks in list order that stop at the page's last row or at the cap; the trigram
    // index alone builds a bitmap of every match first (docs/performance.md, "Search").
    index('cases_list_idx').on(
      t.listGroup,
      t.caseArchived,
      t.modifiedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.searchText,
    ),
    index('cases_status_idx').on(
      t.caseStatus,
      t.caseArchived,
      t.modifiedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.searchText,
    ),
    index('cases_owner_list_idx').on(
      t.ownerId,
      t.listGroup,
      t.caseArchived,
      t.modifiedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('cases_owner_status_idx').on(t.ownerId, t.caseStatus, t.caseArchived),
    index('cases_patient_idx').on(t.patientId),
    index('cases_deadline_idx')
      .on(t.deadlineAt)
      .where(sql`${t.deadlineAt} is not null`),
  ],
);

/**
 * Who sees which case by relation (owner, case user while their membership's role holds, planner
 * of a service with the planner role): one row per (case, user), with the case's list columns copied, so a non-staff list or count reads the user's own
 * index range (20 rows in `modifiedAt` order) instead of walking every case of the filter and
 * testing OR-ed visibility sub-queries. Written ONLY by PostgreSQL triggers on cases, case_users
 * and case_services, and on users when roles change (migrations 0003_case_viewers_triggers.sql
 * and 0012_role_derived_access.sql); printers and instructors see
 * their extra cases through `cases` (the printer and instructor branches in cases-list.repository.ts).
 * `case_status` and `search_text` trail the list index so counts and searches are index-only.
 */
export const caseViewers = pgTable(
  'case_viewers',
  {
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    listGroup: text('list_group'),
    caseStatus: text('case_status').notNull(),
    caseArchived: boolean('case_archived').notNull(),
    modifiedAt: at('modified_at').notNull(),
    searchText: text('search_text').notNull(),
  },
  (t) => [
    primaryKey({ name: 'case_viewers_pkey', columns: [t.caseId, t.userId] }),
    index('case_viewers_list_idx').on(
      t.userId,
      t.listGroup,
      t.caseArchived,
      t.modifiedAt.desc().nullsFirst(),
      t.caseId.desc().nullsFirst(),
      t.caseStatus,
      t.searchText,
    ),
    index('case_viewers_status_idx').on(
      t.userId,
      t.caseStatus,
      t.caseArchived,
      t.modifiedAt.desc().nullsFirst(),
      t.caseId.desc().nullsFirst(),
    ),
  ],
);

/**
 * The number of non-archived, listed cases per (list group, status), as deltas: the triggers of
 * migration 0003 insert +n/−n rows per statement (inserts only, so concurrent moves never wait
 * on a shared counter row) and fold the rows into one per key now and then. Staff counts and
 * staff list totals are `sum(n)` over these few rows instead of counting 100,000 cases.
 */
export const caseListCounts = pgTable('case_list_counts', {
  listGroup: text('list_group').notNull(),
  caseStatus: text('case_status').notNull(),
  n: integer('n').notNull(),
});

/** Case user: a member of the case, optionally notified of its events. */
export const caseUsers = pgTable(
  'case_users',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    triggerNotification: boolean('trigger_notification').notNull().default(true),
    /**
     * The role this membership comes from (domain `MembershipRole`), or null: the member sees the
     * case only while they hold it (`membershipHolds`).
     */
    viaRole: text('via_role').$type<MembershipRole>(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('case_users_case_user_unique').on(t.caseId, t.userId),
    index('case_users_user_idx').on(t.userId, t.caseId),
  ],
);

/** Case service. `transactionId` is set by payments when a transaction pays it. */
export const caseServices = pgTable(
  'case_services',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    /** The combo service this one came from, if any. */
    serviceId: integer('service_id'),
    productCategoryId: integer('product_category_id').notNull(),
    quantity: integer('quantity').notNull().default(1),
    printableProduct: boolean('printable_product').notNull().default(false),
    plannerId: integer('planner_id').references(() => users.id),
    approveRequestAt: at('approve_request_at'),
    approveAt: at('approve_at'),
    dataVersion: integer('data_version').notNull().default(3),
    data: jsonb('data').$type<unknown>(),
    /** Cart item manufactureData (sleeve manufacturer and count) from the checkout. */
    manufactureData: jsonb('manufacture_data').$type<{
      sleevesManufacture: number | null;
      sleevesQtd: number;
    }>(),
    transactionId: integer('transaction_id'),
    paidAt: at('paid_at'),
    /**
     * A supervisor validated the case with this service unpaid (bill later): it may be made, and
     * it stays unpaid until a transaction pays it (the supervisors' payment queue lists it).
     */
    paymentDeferredAt: at('payment_deferred_at'),
    paymentDeferredBy: integer('payment_deferred_by').references(() => users.id),
    paymentDeferredReason: text('payment_deferred_reason'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('case_services_case_idx').on(t.caseId),
    index('case_services_planner_idx').on(t.plannerId, t.caseId),
    index('case_services_product_idx').on(t.productId),
  ],
);

/** Review: a reason (one of the eight, or free text) until someone solves it. */
export const caseReviews = pgTable(
  'case_reviews',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    reasonId: integer('reason_id'),
    description: text('description').notNull().default(''),
    /** The transaction a payment review is about (receipt, card machine, cancel, payment issue). */
    transactionId: integer('transaction_id'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    solvedAt: at('solved_at'),
    solvedBy: integer('solved_by').references(() => users.id),
  },
  (t) => [index('case_reviews_case_idx').on(t.caseId)],
);

/**
 * The case's history and the hook later features react to: every change of a case writes one
 * row in the same transaction as the change.
 */
export const caseEvents = pgTable(
  'case_events',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id').references(() => users.id),
    at: at('at').notNull().defaultNow(),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('case_events_case_idx').on(t.caseId, t.id)],
);

/**
 * Attachment. A case's files (caseId set) or a temporary upload (caseId null: receipts,
 * avatars, product images before they are attached). `storageKey` is the object key in the
 * store; it never contains the user's filename.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id').references(() => cases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    bucketName: text('bucket_name').notNull(),
    attachmentType: text('attachment_type').notNull(),
    stringId: text('string_id'),
    required: boolean('required').notNull().default(false),
    status: text('status').notNull().default('uploading'),
    freeze: boolean('freeze').notNull().default(false),
    filename: text('filename'),
    filesize: bigint('filesize', { mode: 'number' }),
    mimetype: text('mimetype'),
    storageKey: text('storage_key'),
    /** A resumable upload in progress: the store's multipart upload id and the planned part size. */
    uploadId: text('upload_id'),
    uploadPartSize: integer('upload_part_size'),
    justification: text('justification'),
    uploadedAt: at('uploaded_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    modifiedAt: at('modified_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
    /** Version chains of planning files (docs/decisions/028): the file this one answers. */
    previousVersionId: integer('previous_version_id').references((): AnyPgColumn => attachments.id),
    version: integer('version').notNull().default(1),
    /** Id of the chain's first version; null on the first version itself. */
    chainId: integer('chain_id'),
    publishedAt: at('published_at'),
    publishedBy: integer('published_by').references(() => users.id),
    supersededAt: at('superseded_at'),
    /** Hex SHA-256 of the stored bytes (planning files; computed when the upload is confirmed). */
    contentSha256: text('content_sha256'),
  },
  (t) => [
    index('attachments_case_idx').on(t.caseId),
    index('attachments_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'uploading' or ${t.caseId} is null`),
  ],
);
