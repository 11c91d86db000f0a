import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBell,
  IconBuildingStore,
  IconCalendarDue,
  IconTruckDelivery,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isDeadlineNear, truncateName, type CasePreview } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { StatusBadge } from './status-badge';

/**
 * Patient card: names truncated to 15 characters, status, deadline, review flag, the
 * order's dispatch and the caller's unseen notifications of the case.
 */
export function CaseCard(props: {
  item: CasePreview;
  selected?: boolean;
  onOpen: (item: CasePreview) => void;
}) {
  const { t } = useTranslation();
  const { item } = props;
  const name = `${truncateName(item.patient.fname)} ${truncateName(item.patient.lname)}`;
  const near = isDeadlineNear(item.deadlineAt, new Date(), item.caseStatus);
  return (
    <UnstyledButton
      onClick={() => props.onOpen(item)}
      aria-current={props.selected ? 'true' : undefined}
      aria-label={t('cases:list.openCase', {
        name: `${item.patient.fname} ${item.patient.lname}`,
        id: item.id,
      })}
      w="100%"
      data-testid="case-card"
    >
      <Paper
        withBorder
        radius="md"
        p="sm"
        bg={props.selected ? 'var(--mantine-primary-color-light)' : undefined}
      >
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text
              fw={600}
              title={`${item.patient.fname} ${item.patient.lname}`}
              style={{ minWidth: 0 }}
              truncate
            >
              {name}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              #{item.id}
            </Text>
          </Group>
          <Group gap={6}>
            <StatusBadge status={item.caseStatus} archived={item.caseArchived} />
            {item.review && (
              <Badge color="orange" variant="light" leftSection={<IconAlertTriangle size={12} />}>
                {t('cases:list.review')}
              </Badge>
            )}
            {item.dispatch && (
              <Badge
                color="teal"
                variant="light"
                leftSection={
                  item.dispatch === 'shipped' ? (
                    <IconTruckDelivery size={12} />
                  ) : (
                    <IconBuildingStore size={12} />
                  )
                }
                data-testid="case-card-dispatch"
              >
                {t(`cases:dispatch.${item.dispatch}`)}
              </Badge>
            )}
            {item.unseen > 0 && (
              <Badge
                variant="filled"
                leftSection={<IconBell size={12} />}
                data-testid="case-card-unseen"
                aria-label={t('cases:list.unseen', { count: item.unseen })}
              >
                {item.unseen > 99 ? '99+' : item.unseen}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {item.services.map((service) => service.productName).join(', ') ||
              t('cases:list.noServices')}
          </Text>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed" truncate style={{ minWidth: 0 }}>
              {item.owner.displayName}
            </Text>
            <Group
              gap={4}
              wrap="nowrap"
              data-testid="case-deadline"
              data-deadline-near={near || undefined}
            >
              <IconCalendarDue
                size={14}
                color={near ? 'var(--mantine-color-orange-6)' : undefined}
              />
              <Text size="xs" c={near ? 'orange' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                {item.deadlineAt ? formatDate(item.deadlineAt) : t('cases:list.noDeadline')}
              </Text>
            </Group>
          </Group>
        </Stack>
      </Paper>
    </UnstyledButton>
  );
}
