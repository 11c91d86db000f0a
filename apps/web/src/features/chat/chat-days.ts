import { languageTag, type ChatMessageView } from '@dentflow/domain';
import { currentLanguage } from '../../lib/i18n';

export type ChatRow =
  | { kind: 'day'; key: string; day: Date }
  | { kind: 'message'; key: string; message: ChatMessageView };

/** The local calendar day of a moment, as a key ("2026-11-20"). */
export function dayKey(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Messages (oldest first) with a day separator before the first message of each day. */
export function chatRows(messages: readonly ChatMessageView[]): ChatRow[] {
  const rows: ChatRow[] = [];
  let lastDay = '';
  for (const message of messages) {
    const sent = new Date(message.sendAt);
    const key = dayKey(sent);
    if (key !== lastDay) {
      rows.push({ kind: 'day', key: `day-${key}`, day: sent });
      lastDay = key;
    }
    rows.push({ kind: 'message', key: `message-${message.id}`, message });
  }
  return rows;
}

/** "Today", "Yesterday" or the date in the interface language ("20 November 2026"). */
export function dayLabel(
  day: Date,
  labels: { today: string; yesterday: string },
  now = new Date(),
): string {
  const key = dayKey(day);
  if (key === dayKey(now)) return labels.today;
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (key === dayKey(yesterday)) return labels.yesterday;
  // This year's days read with their weekday; older ones with their year.
  const options: Intl.DateTimeFormatOptions =
    day.getFullYear() === now.getFullYear()
      ? { weekday: 'long', day: 'numeric', month: 'long' }
      : { dateStyle: 'long' };
  return new Intl.DateTimeFormat(languageTag(currentLanguage()), options).format(day);
}

/** The time of a message ("14:05" / "2:05 PM") in the interface language. */
export function messageTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat(languageTag(currentLanguage()), { timeStyle: 'short' }).format(at);
}
