import { Alert, Button, EmptyState, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { InstructorOnly } from '../../../app/guards/role-only';
import { errorMessage } from '../../../lib/notify';
import { useStudentsOverview } from '../api/students-api';
import { InviteForm } from '../components/invite-form';
import { PendingInvitations } from '../components/pending-invitations';
import { StudentsTable } from '../components/students-table';

/** /students — an instructor's students, invitations and invite form (issue 11 §2). */
export function StudentsPage() {
  return (
    <InstructorOnly>
      <Students />
    </InstructorOnly>
  );
}

function Students() {
  const { t } = useTranslation();
  const overview = useStudentsOverview();

  let students: React.ReactNode;
  if (overview.isLoading) {
    students = (
      <Stack gap="xs" aria-busy="true" aria-label={t('admin:students.loading')}>
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} h={44} radius="sm" />
        ))}
      </Stack>
    );
  } else if (overview.isError) {
    students = (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(overview.error)}</Text>
        <Button
          size="xs"
          mt="sm"
          variant="light"
          color="red"
          onClick={() => void overview.refetch()}
        >
          {t('admin:students.retry')}
        </Button>
      </Alert>
    );
  } else if (!overview.data || overview.data.students.length === 0) {
    students = (
      <EmptyState
        icon={<IconSchool size={28} />}
        title={t('admin:students.emptyTitle')}
        description={t('admin:students.emptyBody')}
        py="xl"
      />
    );
  } else {
    students = <StudentsTable students={overview.data.students} />;
  }

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">
          {t('admin:students.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('admin:students.subtitle')}
        </Text>
      </div>
      <InviteForm />
      {students}
      {overview.data && <PendingInvitations invitations={overview.data.invitations} />}
    </Stack>
  );
}
