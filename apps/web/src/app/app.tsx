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
 * first paint: its chunk is requested as soon as this module runs but nothing waits for it, so it
 * stays out of every route's initial JavaScript. A notification shown before it is there waits in
 * the store and appears when it mounts. If the chunk cannot load, the app runs without them
 * rather than failing.
 */
const notificationsChunk = import('./components/app-notifications').catch(() => ({
  AppNotifications: () => null,
}));
const AppNotifications = lazyRoute(() => notificationsChunk, 'AppNotifications');

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
