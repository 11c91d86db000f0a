import { Link } from 'react-router';
import {
  Alert,
  Button,
  Card,
  Divider,
  Group,
  List,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-date';
import { errorMessage } from '../../../lib/notify';
import { useCase } from '../api/get-case';
import { StatusBadge } from './status-badge';

/** The preview pane beside the list (desktop): a summary of the selected case and a way in. */
export function CasePreviewPane({ caseId }: { caseId: number | null }) {
  const { t } = useTranslation();
  const query = useCase(caseId ?? 0);
  if (caseId === null) {
    return (
      <Card withBorder radius="md" padding="lg">
        <Text c="dimmed" ta="center">
          {t('cases:preview.choose')}
        </Text>
      </Card>
    );
  }
  if (query.isLoading) {
    return (
      <Card withBorder radius="md" padding="lg">
        <Stack>
          <Skeleton h={28} w="70%" />
          <Skeleton h={16} />
          <Skeleton h={80} />
        </Stack>
      </Card>
    );
  }
  if (query.isError || !query.data) {
    return <Alert color="red">{errorMessage(query.error)}</Alert>;
  }
  const detail = query.data;
  return (
    <Card withBorder radius="md" padding="lg" aria-label={t('cases:preview.label')}>
      <Stack gap="sm">
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {detail.patient.fname} {detail.patient.lname}
        </Title>
        <Group gap="xs">
          <StatusBadge status={detail.caseStatus} archived={detail.caseArchived} />
          <Text size="sm" c="dimmed">
            #{detail.id}
          </Text>
        </Group>
        <Text size="sm">{t('cases:view.owner', { name: detail.owner.displayName })}</Text>
        <Text size="sm">
          {detail.deadlineAt
            ? t('cases:list.deadline', { date: formatDate(detail.deadlineAt) })
            : t('cases:list.noDeadline')}
        </Text>
        <Divider />
        <Text fw={600} size="sm">
          {t('cases:services.title')}
        </Text>
        {detail.services.length ? (
          <List size="sm">
            {detail.services.map((service) => (
              <List.Item key={service.id}>{service.productName}</List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            {t('cases:services.none')}
          </Text>
        )}
        {detail.observation && (
          <Text size="sm" c="dimmed" lineClamp={4} style={{ overflowWrap: 'anywhere' }}>
            {detail.observation}
          </Text>
        )}
        <Button component={Link} to={`/case/${detail.id}`}>
          {t('cases:preview.open')}
        </Button>
      </Stack>
    </Card>
  );
}
