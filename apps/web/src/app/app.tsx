import { Suspense } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { i18n } from '../lib/i18n';
import { lazyRoute } from './lazy-route';
import { cssVariablesResolver, theme } from './theme';

/**
 * The notification container (its transitions, drag and scroll handling) is not needed for the
 * first paint: it loads after, keeping it out of every route's initial JavaScript. A notification
 * shown before it is there waits in the store and appears when it mounts.
 */
const AppNotifications = lazyRoute(
  () => import('./components/app-notifications'),
  'AppNotifications',
);

type AppRouter = ReturnType<typeof createBrowserRouter>;

export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: React.ReactNode;
}) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={null}>
            <AppNotifications />
          </Suspense>
          {children}
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
