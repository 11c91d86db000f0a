import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { caseAttachmentsQueryKey } from '../../features/attachments/api/list-case-attachments';
import { caseKeys } from '../../features/cases/api/case-cache';
import {
  liveClient,
  type LiveClient,
  type LiveEvent,
  type LiveResync,
  type LiveStatus,
} from './live-client';

/** Query-key prefixes the live events refresh (features own the keys below these prefixes). */
export const liveQueryKeys = {
  /** Everything about one case outside the cases feature: transactions, chat… */
  case: (caseId: number) => ['case', caseId] as const,
  chat: (caseId: number) => ['case', caseId, 'chat'] as const,
  notifications: () => ['notifications'] as const,
};

const isCaseScoped = (key: QueryKey, caseId: number) => key[0] === 'case' && key[1] === caseId;

/**
 * What each live event makes the app read again. Invalidation refetches only the queries on
 * screen; the others are read when next shown.
 */
export function applyLiveEvent(queryClient: QueryClient, event: LiveEvent | LiveResync): void {
  const invalidate = (queryKey: QueryKey) => void queryClient.invalidateQueries({ queryKey });
  switch (event.type) {
    case 'case.changed': {
      const { caseId } = event;
      invalidate(caseKeys.detail(caseId));
      invalidate(caseKeys.history(caseId));
      invalidate(caseKeys.lists());
      invalidate(caseKeys.counts());
      invalidate(caseKeys.archive());
      invalidate(caseAttachmentsQueryKey(caseId));
      // The chat has events of its own.
      void queryClient.invalidateQueries({
        predicate: ({ queryKey }) => isCaseScoped(queryKey, caseId) && queryKey[2] !== 'chat',
      });
      return;
    }
    case 'chat.message':
    case 'chat.deleted':
      invalidate(liveQueryKeys.chat(event.caseId));
      return;
    case 'notification.created':
      invalidate(liveQueryKeys.notifications());
      // The lists show unseen counts per case.
      if (event.caseId !== null) {
        invalidate(caseKeys.lists());
        invalidate(caseKeys.counts());
      }
      return;
    case 'resync':
      invalidate(caseKeys.all);
      invalidate(['case']);
      invalidate(['attachments', 'case']);
      invalidate(liveQueryKeys.notifications());
      return;
  }
}

/**
 * Keeps this tab's live connection open while mounted (once, in the main layout) and applies
 * its events to the query cache. Answers the connection status.
 */
export function useLiveUpdates(client: LiveClient = liveClient): LiveStatus {
  const queryClient = useQueryClient();
  useEffect(() => {
    const unsubscribe = client.subscribe((event) => applyLiveEvent(queryClient, event));
    const release = client.retain();
    return () => {
      release();
      unsubscribe();
    };
  }, [client, queryClient]);
  return useSyncExternalStore(client.subscribeStatus, client.getStatus, client.getStatus);
}

/** Joins the case's live rooms while a case page is open (again after every reconnection). */
export function useCaseRoom(caseId: number, client: LiveClient = liveClient): void {
  useEffect(() => (caseId > 0 ? client.joinCase(caseId) : undefined), [client, caseId]);
}
