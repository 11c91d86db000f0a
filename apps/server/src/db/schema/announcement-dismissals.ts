import { integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { announcements } from './catalog';

/**
 * Who has closed which announcement: start-up shows the active announcement to a user until
 * they dismiss it. Editing or re-activating an announcement keeps its dismissals; a new
 * announcement is shown to everyone again.
 */
export const announcementDismissals = pgTable(
  'announcement_dismissals',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    announcementId: integer('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.announcementId] })],
);
