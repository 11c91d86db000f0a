import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/app';
import { createQueryClient } from '../lib/query-client';

/** Renders routes inside the app's real providers, starting at `path`. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** Renders one element on a single route (for components that use router hooks). */
export const renderWithApp = (element: ReactElement, path = '/') =>
  renderRoutes([{ path: '*', element }], path);
