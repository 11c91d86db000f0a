import type { QueryClient } from '@tanstack/react-query';
import { configureApiClient } from '../lib/api-client';
import { i18n, resetLanguage } from '../lib/i18n';
import { showError } from '../lib/notify';
import { rememberProfile } from '../features/profile/api/get-profile';

/**
 * Connects the API client to the app: a new session refreshes the cached profile; a refresh the
 * server refuses resets the language, reports 'User not logged' and goes to /login. A
 * refresh that fails on the network or a 5xx does not come here (the session is kept).
 */
export function wireSession(queryClient: QueryClient, navigate: (path: string) => unknown): void {
  configureApiClient({
    onSession: (session) => rememberProfile(queryClient, session.profile),
    onSessionExpired: () => {
      queryClient.clear();
      void resetLanguage().then(() => {
        showError(new Error(i18n.t('session.userNotLogged')));
        void navigate('/login');
      });
    },
  });
}
