import { z } from 'zod';

/**
 * Notification types (event types; 13 in total). The spec names eleven; 13 is the
 * instructor chat message (chat channel 13). The remaining two ids are not shown in the spec.
 * Icons are tabler icon names (`@tabler/icons-react`: IconPaperclip, IconMessage...), all drawn
 * in the primary colour.
 */
export const NOTIFICATION_TYPES = {
  fileAdded: 2,
  publicChatMessage: 3,
  privateChatMessage: 4,
  clinicChatMessage: 5,
  plannerAssigned: 7,
  statusChanged: 9,
  closed: 10,
  archived: 11,
  instructorChatMessage: 13,
  caseFulfil: 21,
  pendingApproval: 23,
  /** Not in the spec: the order left the lab, or waits for a local withdraw. */
  caseDispatched: 24,
} as const;
export type NotificationTypeKey = keyof typeof NOTIFICATION_TYPES;
export type NotificationTypeId = (typeof NOTIFICATION_TYPES)[NotificationTypeKey];
export const NOTIFICATION_EVENT_TYPE_COUNT = 13;

export const NOTIFICATION_ICONS: Record<NotificationTypeKey, string> = {
  fileAdded: 'paperclip',
  publicChatMessage: 'message',
  privateChatMessage: 'message',
  clinicChatMessage: 'message',
  instructorChatMessage: 'message',
  plannerAssigned: 'at',
  statusChanged: 'edit',
  // Not specified: chosen to read at a glance.
  closed: 'lock',
  archived: 'archive',
  caseFulfil: 'circle-check',
  pendingApproval: 'hourglass',
  caseDispatched: 'truck',
};
export const DEFAULT_NOTIFICATION_ICON = 'bell';

export function notificationTypeKey(eventType: number): NotificationTypeKey | undefined {
  return (Object.keys(NOTIFICATION_TYPES) as NotificationTypeKey[]).find(
    (key) => NOTIFICATION_TYPES[key] === eventType,
  );
}

export function notificationIcon(eventType: number): string {
  const key = notificationTypeKey(eventType);
  return key ? NOTIFICATION_ICONS[key] : DEFAULT_NOTIFICATION_ICON;
}

/** The domain-catalogue key of a type's label (`notificationTypes.<key>`), generic when unknown. */
export function notificationLabelKey(eventType: number): string {
  return `notificationTypes.${notificationTypeKey(eventType) ?? 'other'}`;
}

export const notificationSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int().nullable(),
  userId: z.number().int(),
  eventType: z.number().int(),
  resourseId: z.number().int().nullable(),
  path: z.string().nullable(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  sendedAt: z.string().nullable(),
  viewedAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const isUnread = (notification: Pick<Notification, 'viewedAt'>) => !notification.viewedAt;
export const unreadCount = (notifications: readonly Pick<Notification, 'viewedAt'>[]) =>
  notifications.filter(isUnread).length;

const COUNTER_KEYS = Array.from(
  { length: NOTIFICATION_EVENT_TYPE_COUNT },
  (_, i) => `event_${i + 1}` as const,
);
export type CaseNotificationCounterKey = (typeof COUNTER_KEYS)[number];

/** Case notification status: unseen, trigger and one counter per event type (1-13). */
export const caseNotificationStatusSchema = z.object({
  caseId: z.number().int(),
  unseen: z.number().int().min(0),
  trigger: z.boolean(),
  details: z.object(
    Object.fromEntries(COUNTER_KEYS.map((key) => [key, z.number().int().min(0)])) as Record<
      CaseNotificationCounterKey,
      z.ZodNumber
    >,
  ),
});
export type CaseNotificationStatus = z.infer<typeof caseNotificationStatusSchema>;

export function emptyCaseNotificationDetails(): Record<CaseNotificationCounterKey, number> {
  return Object.fromEntries(COUNTER_KEYS.map((key) => [key, 0])) as Record<
    CaseNotificationCounterKey,
    number
  >;
}

/** The badge count: the sum of the event counters. */
export function caseNotificationTotal(
  details: Partial<Record<CaseNotificationCounterKey, number>>,
): number {
  return COUNTER_KEYS.reduce((sum, key) => sum + Math.max(0, details[key] ?? 0), 0);
}

/**
 * Announcement: active only with a title and a body (start-up shows it in a dialog until the
 * reader dismisses it; `id` names it for `POST /profile/announcement/{id}/dismiss`).
 */
export const announcementSchema = z.object({
  id: z.number().int().positive().optional(),
  active: z.boolean(),
  title: z.string().max(200),
  body: z.string().max(5000),
});
export type Announcement = z.infer<typeof announcementSchema>;
export const NO_ANNOUNCEMENT: Announcement = Object.freeze({ active: false, title: '', body: '' });

export const isAnnouncementActive = (announcement: Announcement | null | undefined) =>
  !!announcement?.active && !!announcement.title.trim() && !!announcement.body.trim();
