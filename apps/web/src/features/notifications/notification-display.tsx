import {
  IconArchive,
  IconAt,
  IconBell,
  IconCircleCheck,
  IconEdit,
  IconHourglass,
  IconLock,
  IconMessage,
  IconPaperclip,
  IconTruckDelivery,
  type Icon,
} from '@tabler/icons-react';
import { ThemeIcon } from '@mantine/core';
import { languageTag, notificationIcon, type NotificationView } from '@dentflow/domain';
import { currentLanguage } from '../../lib/i18n';

/** The tabler icons the domain names (`NOTIFICATION_ICONS`). */
const ICONS: Record<string, Icon> = {
  paperclip: IconPaperclip,
  message: IconMessage,
  at: IconAt,
  edit: IconEdit,
  lock: IconLock,
  archive: IconArchive,
  'circle-check': IconCircleCheck,
  hourglass: IconHourglass,
  truck: IconTruckDelivery,
  bell: IconBell,
};

/** A notification's icon, in the primary colour like every notification icon. */
export function NotificationIcon({
  notification,
  size = 32,
}: {
  notification: Pick<NotificationView, 'icon' | 'eventType'>;
  size?: number;
}) {
  const Glyph = ICONS[notification.icon] ?? ICONS[notificationIcon(notification.eventType)];
  const Shown = Glyph ?? IconBell;
  return (
    <ThemeIcon variant="light" radius="xl" size={size} aria-hidden>
      <Shown size={Math.round(size * 0.55)} />
    </ThemeIcon>
  );
}

/** Where a notification opens: its path (case and tab), else its case, else the list. */
export function notificationLink(notification: Pick<NotificationView, 'caseId' | 'path'>): string {
  if (notification.path && notification.path.startsWith('/')) return notification.path;
  return notification.caseId ? `/case/${notification.caseId}` : '/notifications';
}

/** "Ana Lima" of a notification's patient, or '' when none. */
export const notificationPatient = (notification: Pick<NotificationView, 'patient'>) =>
  notification.patient ? `${notification.patient.fname} ${notification.patient.lname}`.trim() : '';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "now" in the interface language. */
export function formatRelativeTime(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const seconds = Math.round((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat(languageTag(currentLanguage()), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** The full date and time, for a tooltip or a `title`. */
export function formatDateTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat(languageTag(currentLanguage()), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(at);
}
