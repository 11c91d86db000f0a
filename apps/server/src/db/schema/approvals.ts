import {
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ApprovedFile } from '@dentflow/domain';
import { users } from './accounts';
import { cases } from './cases';

/**
 * What a client approved (docs/decisions/028): the planning file versions with their hashes, the
 * text, who, when and from where, with snapshots of the patient and the services so a later edit
 * of the case never changes the record. Written in the transaction of the case move `approve`.
 */
export const caseApprovalRecords = pgTable(
  'case_approval_records',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    approverId: integer('approver_id')
      .notNull()
      .references(() => users.id),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }).notNull(),
    address: text('address').notNull(),
    text: text('text').notNull(),
    language: text('language').notNull(),
    /** Crockford base32, six groups of four (120 random bits). */
    certificateCode: text('certificate_code').notNull(),
    patientName: text('patient_name').notNull(),
    services: jsonb('services').$type<{ id: number; name: string }[]>().notNull(),
    files: jsonb('files').$type<ApprovedFile[]>().notNull(),
  },
  (t) => [
    index('case_approval_records_case_idx').on(t.caseId),
    uniqueIndex('case_approval_records_code_idx').on(t.certificateCode),
  ],
);
