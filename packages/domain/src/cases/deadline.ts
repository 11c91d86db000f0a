import { isOneOf } from '../common/one-of';
import type { CaseStatus } from './case-status';

/**
 * Planning deadline (decision record docs/decisions/010-case-deadline.md).
 * Business days are Monday to Friday in UTC; holidays are not counted.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const isWeekend = (date: Date) => date.getUTCDay() === 0 || date.getUTCDay() === 6;

/**
 * `days` business days after `from`, keeping the time of day. A start on a weekend counts from
 * the next Monday at the same time (Saturday + 1 business day = Tuesday); 0 days from a weekend
 * is that Monday.
 */
export function addBusinessDays(from: Date, days: number): Date {
  let date = new Date(from.getTime());
  while (isWeekend(date)) date = new Date(date.getTime() + DAY_MS);
  let left = Math.max(0, Math.floor(days));
  while (left > 0) {
    date = new Date(date.getTime() + DAY_MS);
    if (!isWeekend(date)) left -= 1;
  }
  return date;
}

/**
 * The deadline of a case validated at `validatedAt`: the largest manufacture time of its services
 * in business days. No services → the validation moment itself (rolled to a business day).
 */
export function caseDeadline(validatedAt: Date, manufactureTimes: readonly number[]): Date {
  const days = manufactureTimes.reduce((max, time) => Math.max(max, time), 0);
  return addBusinessDays(validatedAt, days);
}

/** Statuses where the planning is done, so a near deadline is no longer a planning problem. */
export const DEADLINE_SETTLED_STATUSES = [
  'finishing',
  'print',
  'finished',
  'closed',
  'cancelled',
  'archive',
] as const satisfies readonly CaseStatus[];

/** Within this much of the deadline (or past it) the case gets 'planning deadline near'. */
export const DEADLINE_NEAR_MS = DAY_MS;

/**
 * The deadline is within one day (or past) and the case is still being planned: the server's
 * 'planning deadline near' review and the warning colour of the web's case card and page.
 * `deadlineAt` is a date or the API's ISO text; none or an unreadable one is never near.
 */
export function isDeadlineNear(
  deadlineAt: Date | string | null | undefined,
  now: Date,
  status: string,
): boolean {
  if (!deadlineAt) return false;
  if (isOneOf(DEADLINE_SETTLED_STATUSES, status)) return false;
  const at = typeof deadlineAt === 'string' ? Date.parse(deadlineAt) : deadlineAt.getTime();
  return !Number.isNaN(at) && at - now.getTime() <= DEADLINE_NEAR_MS;
}
