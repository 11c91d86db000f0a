import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { attachments, cases } from './cases';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `[x, y, z]` (mm). */
type Vec3 = number[];

/**
 * A pin on a planning model: a note at a point of one file's mesh (point and face normal in the
 * model's coordinates, mm) with the camera it was dropped from. It belongs to that file (one
 * version of the plan) for good: docs/decisions/029-pin-anchoring.md.
 */
export const planPins = pgTable(
  'plan_pins',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    attachmentId: integer('attachment_id')
      .notNull()
      .references(() => attachments.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    note: text('note').notNull(),
    point: jsonb('point').$type<Vec3>().notNull(),
    normal: jsonb('normal').$type<Vec3>().notNull(),
    camera: jsonb('camera').$type<{ position: Vec3; target: Vec3 }>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    resolvedAt: at('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => users.id),
    /** The chat message that announced the pin (written in the pin's transaction). */
    chatMessageId: integer('chat_message_id'),
  },
  (t) => [index('plan_pins_attachment_idx').on(t.attachmentId, t.id)],
);
