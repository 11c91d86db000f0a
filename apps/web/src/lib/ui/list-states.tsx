import { useEffect, useEffectEvent, type ReactNode } from 'react';
import { Alert, Button, Skeleton, Stack, Text, type MantineRadius } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../notify';

/** The part of a TanStack query result a list screen reads. */
export interface ListQuery<T> {
  data: T | undefined;
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Placeholder rows shown while the first answer loads, shaped like the list's rows. */
export interface ListSkeleton {
  rows: number;
  height: number;
  radius?: MantineRadius;
}

/** The default emptiness: a paged answer (`{items, total, …}`) without items. */
const hasNoItems = (data: unknown) => (data as { items?: readonly unknown[] }).items?.length === 0;

/**
 * What a list screen shows in place of its rows: placeholder rows while the first answer loads,
 * the error with a retry, `empty` when there is nothing (or no answer), else `children` with the
 * data. Texts differ per screen, so the caller passes them translated.
 */
export function ListStates<T>({
  query,
  isEmpty = hasNoItems,
  skeleton,
  loadingLabel,
  errorTitle,
  retryLabel,
  empty,
  children,
}: {
  query: ListQuery<T>;
  /** Whether the answer has nothing to show; by default, a paged answer with no `items`. */
  isEmpty?: (data: T) => boolean;
  skeleton: ListSkeleton;
  /** Names the busy placeholder for screen readers. */
  loadingLabel?: string;
  /** Defaults to the generic "Error". */
  errorTitle?: string;
  retryLabel: string;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isLoading) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={loadingLabel}>
        {Array.from({ length: skeleton.rows }, (_, n) => (
          <Skeleton key={n} h={skeleton.height} radius={skeleton.radius ?? 'sm'} />
        ))}
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" title={errorTitle ?? t('feedback.error')}>
        <Text size="sm">{errorMessage(query.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void query.refetch()}>
          {retryLabel}
        </Button>
      </Alert>
    );
  }
  if (query.data === undefined || isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

/**
 * A page past the end (an old link, rows deleted meanwhile) moves to the last page once the
 * server has answered it empty — not while the previous page is still shown as a placeholder.
 * Pages count from 0 like the API.
 */
export function usePastTheEndRedirect({
  query,
  page,
  pages,
  goToPage,
}: {
  query: { data: { items: readonly unknown[] } | undefined; isPlaceholderData: boolean };
  page: number;
  pages: number;
  goToPage: (page: number) => void;
}) {
  const pastTheEnd = !query.isPlaceholderData && query.data?.items.length === 0 && page > 0;
  // The callers' `goToPage` is a new function each render; only running out of pages matters.
  const moveTo = useEffectEvent(goToPage);
  useEffect(() => {
    if (pastTheEnd) moveTo(pages - 1);
  }, [pastTheEnd, pages]);
}
