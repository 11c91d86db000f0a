import { Link, useParams } from 'react-router';
import { Alert, Anchor, Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SupervisorOnly } from '../../../app/guards/role-only';
import { errorMessage } from '../../../lib/notify';
import { useAdminUser } from '../api/get-user';
import { AccessSection } from '../components/access-section';
import { AddressSection, GeneralSection, InfoSection } from '../components/profile-sections';
import { UserHeader } from '../components/user-header';

/** /users/:id — one user's profile, access and account; supervisors read, admins edit. */
export function UserPage() {
  return (
    <SupervisorOnly>
      <UserDetail />
    </SupervisorOnly>
  );
}

function Section({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function UserDetail() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const query = useAdminUser(id);
  const user = query.data;

  const back = (
    <Anchor component={Link} to="/users" size="sm">
      <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> {t('admin:users.back')}
    </Anchor>
  );

  if (!Number.isInteger(id) || id <= 0 || query.isError) {
    return (
      <Stack gap="md" maw={900}>
        {back}
        <Alert color="red" title={t('feedback.error')}>
          <Text size="sm">
            {query.isError ? errorMessage(query.error) : t('admin:users.notFound')}
          </Text>
          {query.isError && (
            <Button
              size="xs"
              mt="sm"
              variant="light"
              color="red"
              onClick={() => void query.refetch()}
            >
              {t('admin:users.retry')}
            </Button>
          )}
        </Alert>
      </Stack>
    );
  }
  if (!user) {
    return (
      <Center py="xl" aria-busy="true" aria-label={t('admin:users.loadingUser')}>
        <Loader />
      </Center>
    );
  }

  // A save answers the user again with a new modifiedAt: the forms restart from the saved values.
  const version = `${user.id}:${user.modifiedAt}`;
  return (
    <Stack gap="md" maw={900}>
      {back}
      <UserHeader user={user} />
      {!user.canEdit && (
        <Alert color="blue" variant="light" data-testid="user-read-only">
          {t('admin:users.readOnly')}
        </Alert>
      )}
      <Section title={t('admin:users.sections.access')} testId="user-section-access">
        <AccessSection key={version} user={user} />
      </Section>
      <Section title={t('admin:users.sections.general')} testId="user-section-general">
        <GeneralSection key={version} user={user} />
      </Section>
      <Section title={t('admin:users.sections.info')} testId="user-section-info">
        <InfoSection key={version} user={user} />
      </Section>
      <Section title={t('admin:users.sections.address')} testId="user-section-address">
        <AddressSection key={version} user={user} />
      </Section>
    </Stack>
  );
}
