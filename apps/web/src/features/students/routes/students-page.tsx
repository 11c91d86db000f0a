import { EmptyState, Stack, Text, Title } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { InstructorOnly } from '../../../app/guards/role-only';
import { ListStates } from '../../../lib/ui/list-states';
import { useStudentsOverview } from '../api/students-api';
import { InviteForm } from '../components/invite-form';
import { PendingInvitations } from '../components/pending-invitations';
import { StudentsTable } from '../components/students-table';

/** /students — an instructor's students, invitations and invite form. */
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
      <ListStates
        query={overview}
        isEmpty={(answer) => answer.students.length === 0}
        skeleton={{ rows: 3, height: 44 }}
        loadingLabel={t('admin:students.loading')}
        retryLabel={t('admin:students.retry')}
        empty={
          <EmptyState
            icon={<IconSchool size={28} />}
            title={t('admin:students.emptyTitle')}
            description={t('admin:students.emptyBody')}
            py="xl"
          />
        }
      >
        {(answer) => <StudentsTable students={answer.students} />}
      </ListStates>
      {overview.data && <PendingInvitations invitations={overview.data.invitations} />}
    </Stack>
  );
}
