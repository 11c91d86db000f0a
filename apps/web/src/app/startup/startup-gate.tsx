import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, clearSession, isSessionRefused } from '../../lib/api-client';
import { showError } from '../../lib/notify';
import { FullPageLoader } from '../components/full-page-loader';
import { dismissAnnouncement } from '../../features/profile/api/get-announcement';
import { runStartup, type StartupResult } from './run-startup';
import { takeEarlyStartup } from './early-start';

type GateState =
  | { step: 'loading' }
  | { step: 'ready'; result: StartupResult; dialog: 'announcement' | 'completeProfile' | null };

/**
 * Runs the start-up sequence before the main layout shows: a full-page loader meanwhile, then
 * the announcement or complete-profile dialog. A failed start-up goes to /login.
 */
export function StartupGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<GateState>({ step: 'loading' });

  useEffect(() => {
    let cancelled = false;
    // The entry may have begun it already, with the page's chunks (early-start.ts).
    (takeEarlyStartup(queryClient) ?? runStartup(queryClient)).then(
      (result) => {
        if (cancelled) return;
        const dialog = result.decision === 'home' ? null : result.decision;
        setState({ step: 'ready', result, dialog });
      },
      (error: unknown) => {
        if (cancelled) return;
        // A refused refresh has already reported 'User not logged'; other failures are shown here.
        if (!(error instanceof ApiError && error.code === 'NOT_AUTHORIZED')) showError(error);
        // A network error or a 5xx keeps the stored refresh token: the session is still valid
        // on the server, and reopening a protected page starts up (and refreshes) again.
        if (isSessionRefused(error)) clearSession();
        void navigate('/login', { replace: true });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [queryClient, navigate]);

  if (state.step === 'loading') return <FullPageLoader label={t('startup.loading')} />;

  const closeDialog = () => setState({ ...state, dialog: null });
  const { announcement } = state.result;
  // Closing keeps the user on the page they opened (a mailed link lands where it points) and
  // remembers the dismissal on the server, so the next page load does not show it again. A
  // failed dismissal only means it shows once more.
  const dismiss = () => {
    closeDialog();
    if (announcement.id) void dismissAnnouncement(announcement.id).catch(() => undefined);
  };

  return (
    <>
      {children}
      <Modal
        opened={state.dialog === 'announcement'}
        onClose={dismiss}
        title={announcement.title}
        centered
      >
        <Text style={{ whiteSpace: 'pre-line' }}>{announcement.body}</Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={dismiss} data-testid="announcement-dismiss">
            {t('feedback.ok')}
          </Button>
        </Group>
      </Modal>
      <Modal
        opened={state.dialog === 'completeProfile'}
        onClose={() => {
          closeDialog();
          void navigate('/profile-settings');
        }}
        title={t('startup.completeProfileTitle')}
        centered
      >
        <Text>{t('startup.completeProfileBody')}</Text>
        <Group justify="flex-end" mt="lg">
          <Button
            onClick={() => {
              closeDialog();
              void navigate('/profile-settings');
            }}
          >
            {t('startup.completeProfileAction')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
