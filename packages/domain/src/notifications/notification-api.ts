/**
 * The notifications API contract: `/api/v1/notification/…` and the email
 * preferences of profile settings, shared by the server's routes and the web.
 */
import { z } from 'zod';
import { codeSchema } from '../common/bounds';
import { MESSAGE } from '../forms/rules';
import { NOTIFICATION_TYPES } from './notification';

export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_LAST = 5;

/** A notification as the bell and `/notifications` show it. */
export const notificationViewSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int().nullable(),
  eventType: z.number().int(),
  /** The tabler icon name of its type (`notificationIcon`). */
  icon: z.string(),
  resourceId: z.number().int().nullable(),
  /** Where the web opens it (case and tab). */
  path: z.string().nullable(),
  actor: z.object({ id: z.number().int(), displayName: z.string() }).nullable(),
  patient: z.object({ fname: z.string(), lname: z.string() }).nullable(),
  createdAt: z.string(),
  viewedAt: z.string().nullable(),
});
export type NotificationView = z.infer<typeof notificationViewSchema>;

/** `GET /notification/last5`: the newest five and how many are unseen (the badge). */
export const lastNotificationsSchema = z.object({
  items: z.array(notificationViewSchema),
  unseen: z.number().int().min(0),
});
export type LastNotifications = z.infer<typeof lastNotificationsSchema>;

/** `GET /notification/list/{page}`: newest first, page from 0. */
export const notificationPageSchema = z.object({
  items: z.array(notificationViewSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(0),
  pageSize: z.number().int(),
  unseen: z.number().int().min(0),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

const NOTIFICATION_TYPE_IDS = Object.values(NOTIFICATION_TYPES) as number[];

/**
 * The types mailed when a user has not chosen (decision: what needs the user's action or closes
 * the work — status changes, approval pending, case finished, order dispatched — and the chat,
 * as a digest).
 */
export const DEFAULT_EMAIL_NOTIFICATIONS: number[] = [
  NOTIFICATION_TYPES.publicChatMessage,
  NOTIFICATION_TYPES.statusChanged,
  NOTIFICATION_TYPES.caseFulfil,
  NOTIFICATION_TYPES.pendingApproval,
  NOTIFICATION_TYPES.caseDispatched,
];

/** A choice of notification types: known ids, answered sorted without repeats. */
export const notificationTypeIdsSchema = z
  .array(codeSchema(NOTIFICATION_TYPE_IDS))
  .max(NOTIFICATION_TYPE_IDS.length, MESSAGE.max)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

/** `GET/POST /api/v1/profile/notifications`: the types that also come by email. */
export const emailNotificationsSchema = z.object({ eventTypes: notificationTypeIdsSchema });
export type EmailNotifications = z.infer<typeof emailNotificationsSchema>;
