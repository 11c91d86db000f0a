import type { ReactNode } from 'react';
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/notify';

/** A settings section's heading: title, one line of description, an optional action. */
export function SectionHeader(props: { title: string; description: string; action?: ReactNode }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
      <Stack gap={2}>
        <Title order={2} size="h3">
          {props.title}
        </Title>
        <Text size="sm" c="dimmed">
          {props.description}
        </Text>
      </Stack>
      {props.action}
    </Group>
  );
}

/**
 * Shows the section's data once its query has it; until then a skeleton, and on failure the
 * server's message with a retry.
 */
export function QueryContent<T>(props: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { query } = props;
  if (query.isError) {
    return (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(query.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void query.refetch()}>
          {t('admin:settings.common.retry')}
        </Button>
      </Alert>
    );
  }
  if (query.data === undefined) {
    return (
      <Stack gap="xs" aria-busy="true">
        <Skeleton h={36} />
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  }
  return <>{props.children(query.data)}</>;
}
