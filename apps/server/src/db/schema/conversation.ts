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
import { users } from './accounts';
import { cases } from './cases';
import { planPins } from './plan-pins';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Chat message: one row per message of a case's channel (3, 4, 5 or 13). */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    channel: integer('channel').notNull(),
    fromUser: integer('from_user')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    /** The notification a message answers (spec `quotedNotification`), if any. */
    quotedNotification: integer('quoted_notification'),
    sendAt: at('send_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
    deletedBy: integer('deleted_by').references(() => users.id),
    /** The pin on a planning model this message announces, if any. */
    pinId: integer('pin_id').references(() => planPins.id, { onDelete: 'set null' }),
  },
  (t) => [index('chat_messages_case_channel_idx').on(t.caseId, t.channel, t.id)],
);

/** View record of a chat: who read a case's channel up to which message. */
export const chatViews = pgTable(
  'chat_views',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: integer('channel').notNull(),
    lastSeenMessageId: integer('last_seen_message_id').notNull(),
    viewedAt: at('viewed_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_views_case_user_channel_unique').on(t.caseId, t.userId, t.channel)],
);

/**
 * Notification: one per recipient of something that happened on a case (one of the 13 event
 * types), written in the same transaction as what caused it.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    caseId: integer('case_id').references(() => cases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventType: integer('event_type').notNull(),
    /** What it is about: a message, a file, a service (spec `resourseId`). */
    resourceId: integer('resource_id'),
    /** Where the web opens it, e.g. `/case/12?tab=chat&channel=3`. */
    path: text('path'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    modifiedAt: at('modified_at').notNull().defaultNow(),
    /** When the email about it went (or was folded into a digest). */
    sentAt: at('sent_at'),
    viewedAt: at('viewed_at'),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_user_case_idx').on(t.userId, t.caseId),
  ],
);

/**
 * The durable mail outbox: a mail is a row written in the transaction of the change that causes
 * it; a worker delivers it (row-locked, retried with backoff), so a crash loses nothing and two
 * instances never send one row twice.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    /** Which mail (e.g. `verifyAccount`, `resetPassword`, `notification`, `chatDigest`). */
    template: text('template').notNull(),
    language: text('language').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    /** pending, sent, failed (gave up after the last attempt). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    sentAt: at('sent_at'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);
