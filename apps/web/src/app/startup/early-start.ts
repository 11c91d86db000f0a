import { isValidElement, type ReactNode } from 'react';
import { matchRoutes, type Params, type RouteObject } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { getAccessToken, refreshSession } from '../../lib/api-client';
import { hasRefreshToken } from '../../lib/session-storage';
import type { StartupResult } from './run-startup';

/** The id of the route whose pages need a session (the main layout behind RequireAuth). */
export const SIGNED_IN_ROUTES_ID = 'signed-in';

/** Data a route's first render will ask for, fetched once the session is there. */
export type RoutePrefetch = (
  queryClient: QueryClient,
  params: Params,
  search: URLSearchParams,
  /** Settles when the session is there: the chunk of the fetching code need not wait for it. */
  session: Promise<unknown>,
) => Promise<unknown>;

/** What a route object's `handle` may carry for the early start. */
export interface EarlyStartHandle {
  prefetch?: RoutePrefetch;
}

interface Preloadable {
  preload: () => Promise<unknown>;
}

const isPreloadable = (type: unknown): type is Preloadable =>
  typeof (type as Partial<Preloadable> | null)?.preload === 'function';

/** Starts the chunks of the lazy routes an element renders (a layout inside a guard included). */
function preloadChunks(node: ReactNode): void {
  if (!isValidElement(node)) return;
  if (isPreloadable(node.type)) void node.type.preload().catch(() => undefined);
  preloadChunks((node.props as { children?: ReactNode }).children);
}

let early: { queryClient: QueryClient; startup: Promise<StartupResult> } | null = null;

/**
 * A returning user (a refresh token on this browser) who opens a page of the main layout waits
 * for the layout's and the page's chunks, the session refresh, the start-up calls and the page's
 * data. Rendered in turn, each waits for the one before (the layout asks for the session only once
 * its chunk has run, the page's chunk only once the start-up is done, its data only once it has
 * rendered); started here, from the entry, they all run while the language catalogue loads and
 * the entry chunk runs. The start-up runs exactly as the gate would run it, which takes it over
 * (`takeEarlyStartup`). Anything else (a public page, no session) starts nothing.
 */
export function startEarly(
  queryClient: QueryClient,
  routes: RouteObject[],
  location: { pathname: string; search: string } = window.location,
): void {
  if (!hasRefreshToken()) return;
  const matches = matchRoutes(routes, location.pathname);
  if (!matches?.some((match) => match.route.id === SIGNED_IN_ROUTES_ID)) return;
  for (const match of matches) preloadChunks(match.route.element);

  const session = getAccessToken() ? Promise.resolve() : refreshSession();
  const search = new URLSearchParams(location.search);
  for (const match of matches) {
    const prefetch = (match.route.handle as EarlyStartHandle | undefined)?.prefetch;
    // A failed prefetch leaves nothing behind: the page asks again when it renders.
    if (prefetch) prefetch(queryClient, match.params, search, session).catch(() => undefined);
  }
  const startup = Promise.all([import('./run-startup'), session]).then(([{ runStartup }]) =>
    runStartup(queryClient),
  );
  // The gate reports a failed start-up when it takes it over.
  startup.catch(() => undefined);
  early = { queryClient, startup };
}

/** The start-up begun by `startEarly` for this query client, once (the next mount starts anew). */
export function takeEarlyStartup(queryClient: QueryClient): Promise<StartupResult> | null {
  const taken = early?.queryClient === queryClient ? early.startup : null;
  early = null;
  return taken;
}
