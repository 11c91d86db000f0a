import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import { i18n } from '../lib/i18n';
import { cssVariablesResolver, theme } from './theme';

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
          <Notifications position="top-right" zIndex={1000} />
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
