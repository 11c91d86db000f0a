import { useEffect, useRef } from 'react';
import { useDebouncedCallback } from '@mantine/hooks';

/**
 * `useDebouncedCallback` for a late update of the page's URL (a search applied when typing
 * pauses), dropped once the user has left the page. During the route transition to a lazily
 * loaded page this one stays mounted, and React Router resolves `?q=…` against the new location:
 * the search would land on the next page's URL. The browser's address changes at once, so a
 * pathname other than the one of this page's last committed render means the user has moved on.
 */
export function useDebouncedUrlUpdate<Args extends unknown[]>(
  update: (...args: Args) => void,
  delay: number,
) {
  const committedPath = useRef(window.location.pathname);
  useEffect(() => {
    committedPath.current = window.location.pathname;
  });
  return useDebouncedCallback((...args: Args) => {
    if (window.location.pathname === committedPath.current) update(...args);
  }, delay);
}
