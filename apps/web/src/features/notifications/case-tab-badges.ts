import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  emptyCaseNotificationDetails,
  eventTypeOfCounterKey,
  NOTIFICATION_TYPES,
  type CaseNotificationCounterKey,
  type CaseNotificationStatus,
} from '@dentflow/domain';
import { fetchCaseNotifications, useCaseNotificationStatus } from './api/case-notifications';
import { notificationKeys } from './api/notification-keys';

/** The case tabs whose labels count unseen notifications (the chat counts its unread messages). */
export type NotifiedCaseTab = 'general' | 'attachments';
export type CaseTabCounts = Record<NotifiedCaseTab, number>;

/** Which tab shows what a notification type is about. */
const TAB_OF_TYPE: Partial<Record<number, NotifiedCaseTab>> = {
  [NOTIFICATION_TYPES.fileAdded]: 'attachments',
  [NOTIFICATION_TYPES.plannerAssigned]: 'general',
  [NOTIFICATION_TYPES.statusChanged]: 'general',
  [NOTIFICATION_TYPES.closed]: 'general',
  [NOTIFICATION_TYPES.archived]: 'general',
  [NOTIFICATION_TYPES.caseDispatched]: 'general',
};

const isNotified = (tab: string): tab is NotifiedCaseTab =>
  tab === 'general' || tab === 'attachments';

const noCounts = (): CaseTabCounts => ({ general: 0, attachments: 0 });

/** The unseen counters of a case status, summed per tab. */
export function caseTabCounts(
  details: Partial<Record<CaseNotificationCounterKey, number>>,
): CaseTabCounts {
  const counts = noCounts();
  for (const [key, value] of Object.entries(details)) {
    // Types above 13 (e.g. the dispatch) count in a free slot: the slot is not the type.
    const type = eventTypeOfCounterKey(key as CaseNotificationCounterKey);
    const tab = type === null ? undefined : TAB_OF_TYPE[type];
    if (tab) counts[tab] += Math.max(0, value ?? 0);
  }
  return counts;
}

const add = (a: CaseTabCounts, b: CaseTabCounts): CaseTabCounts => ({
  general: a.general + b.general,
  attachments: a.attachments + b.attachments,
});

interface Visit {
  caseId: number;
  /** What was unseen when the case was opened (marked seen on the server since). */
  atOpen: CaseTabCounts;
  /** The count each tab had when the user last looked at it. */
  looked: CaseTabCounts;
}

const freshVisit = (caseId: number): Visit => ({ caseId, atOpen: noCounts(), looked: noCounts() });

/**
 * Opening a case marks its notifications seen (once per visit: the bell stops counting them),
 * while the tab labels still show what was new until the user opens each tab. Notifications that
 * arrive during the visit stay unseen in the bell and add to the labels.
 */
export function useCaseTabBadges(caseId: number, currentTab: string): CaseTabCounts {
  const queryClient = useQueryClient();
  const status = useCaseNotificationStatus(caseId);
  const [visit, setVisit] = useState<Visit>(() => freshVisit(caseId));
  const markedFor = useRef(0);
  // Another case in the same page: a new visit.
  const current = visit.caseId === caseId ? visit : freshVisit(caseId);
  if (visit.caseId !== caseId) setVisit(current);

  const data = status.data;
  useEffect(() => {
    // Only what was unseen when the case was opened: what arrives later stays in the bell.
    if (!data || markedFor.current === caseId) return;
    markedFor.current = caseId;
    if (data.unseen === 0) return;
    const counts = caseTabCounts(data.details);
    const statusKey = notificationKeys.status(caseId);
    void (async () => {
      try {
        await queryClient.cancelQueries({ queryKey: statusKey });
        const seen = await fetchCaseNotifications(caseId);
        queryClient.setQueryData(notificationKeys.forCase(caseId), seen);
        queryClient.setQueryData<CaseNotificationStatus>(statusKey, (cached) =>
          cached ? { ...cached, unseen: 0, details: emptyCaseNotificationDetails() } : cached,
        );
        setVisit((previous) =>
          previous.caseId === caseId ? { ...previous, atOpen: counts } : previous,
        );
        void queryClient.invalidateQueries({ queryKey: notificationKeys.last() });
        void queryClient.invalidateQueries({ queryKey: notificationKeys.lists() });
      } catch {
        // Not marked: the bell keeps counting them and the labels show the server's counts.
      }
    })();
  }, [caseId, data, queryClient]);

  const totals = add(current.atOpen, data ? caseTabCounts(data.details) : noCounts());
  const lookingAt = isNotified(currentTab) ? totals[currentTab] : null;
  useEffect(() => {
    if (lookingAt === null || !isNotified(currentTab)) return;
    setVisit((previous) =>
      previous.looked[currentTab] === lookingAt
        ? previous
        : { ...previous, looked: { ...previous.looked, [currentTab]: lookingAt } },
    );
  }, [currentTab, lookingAt]);

  const shown = (tab: NotifiedCaseTab) =>
    tab === currentTab ? 0 : Math.max(0, totals[tab] - current.looked[tab]);
  return { general: shown('general'), attachments: shown('attachments') };
}
