import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LoginRedirectState } from '../../../lib/login-redirect';
import { showError, showSuccess } from '../../../lib/notify';
import { getStoredUser } from '../../../lib/session-storage';
import { useAcceptInvitation, useInvitationPreview } from '../api/students-api';

/**
 * The register page's word on an invitation link: who invites and the discount, or that the link
 * no longer works. Someone already signed in on this browser accepts it with their account;
 * someone signed out may sign in first, and the login page brings them back to this link.
 */
export function InvitationBanner({ token }: { token: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const signedIn = getStoredUser();

  if (preview.isError) {
    return (
      <Alert color="yellow" variant="light">
        {t('admin:students.register.invalid')}
      </Alert>
    );
  }
  if (!token || !preview.data) return null;
  const { instructorName, discount } = preview.data;

  const acceptNow = () =>
    accept.mutate(token, {
      onSuccess: () => {
        showSuccess(t('admin:students.register.accepted', { instructor: instructorName }));
        void navigate('/shop');
      },
      onError: showError,
    });

  return (
    <Alert color="teal" variant="light">
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {discount > 0
            ? t('admin:students.register.invitedBy', { instructor: instructorName, discount })
            : t('admin:students.register.invitedByNoDiscount', { instructor: instructorName })}
        </Text>
        {signedIn ? (
          <>
            <Text size="sm">
              {t('admin:students.register.signedInAs', { name: signedIn.dataGeneral.displayName })}
            </Text>
            <Button size="xs" variant="light" onClick={acceptNow} loading={accept.isPending}>
              {t('admin:students.register.accept')}
            </Button>
          </>
        ) : (
          <Text size="sm">
            {t('admin:students.register.haveAccount')}{' '}
            <Anchor
              component={Link}
              to="/login"
              state={
                {
                  from: `/register?invite=${encodeURIComponent(token)}`,
                } satisfies LoginRedirectState
              }
            >
              {t('admin:students.register.signInToAccept')}
            </Anchor>
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
