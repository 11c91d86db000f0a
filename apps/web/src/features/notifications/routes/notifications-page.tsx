import { Link, useSearchParams } from 'react-router';
import { Button, Card, EmptyState, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_PAGE_SIZE } from '@dentflow/domain';
import { showError } from '../../../lib/notify';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates } from '../../../lib/ui/list-states';
import { useNotificationPage } from '../api/list-notifications';
import { useMarkAllRead } from '../api/mark-all-read';
import { notificationLink } from '../notification-display';
import { NotificationSummary } from '../components/notification-summary';

const pageFrom = (value: string | null) => {
  const page = Number(value ?? 0);
  return Number.isSafeInteger(page) && page >= 0 ? page : 0;
};

/** /notifications — every notification of the caller, 20 a page, newest first. */
export function NotificationsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const query = useNotificationPage(page);
  const markAllRead = useMarkAllRead();
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const data = query.data;
  const pages = pageCountOf(data, NOTIFICATION_PAGE_SIZE);
  const unseen = data?.unseen ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('notifications:title')}
          </Title>
          {unseen > 0 && (
            <Text size="sm" c="dimmed">
              {t('notifications:unseenCount', { n: unseen })}
            </Text>
          )}
        </Stack>
        <Button
          variant="light"
          leftSection={<IconChecks size={16} />}
          disabled={unseen === 0}
          loading={markAllRead.isPending}
          onClick={() => markAllRead.mutate(undefined, { onError: showError })}
          data-testid="notifications-mark-all-read"
        >
          {t('notifications:markAllRead')}
        </Button>
      </Group>
      <ListStates
        query={query}
        skeleton={{ rows: 4, height: 64, radius: 'md' }}
        errorTitle={t('notifications:loadError')}
        retryLabel={t('notifications:retry')}
        empty={
          <EmptyState
            icon={<IconBellOff size={28} />}
            title={t('notifications:emptyTitle')}
            description={t('notifications:empty')}
            py="xl"
          />
        }
      >
        {(answer) => (
          <Stack
            gap="xs"
            component="ul"
            m={0}
            p={0}
            style={{ listStyle: 'none', opacity: query.isPlaceholderData ? 0.6 : 1 }}
            aria-busy={query.isPlaceholderData}
            aria-label={t('notifications:title')}
          >
            {answer.items.map((notification) => (
              <li key={notification.id}>
                <Card
                  withBorder
                  radius="md"
                  padding={0}
                  bg={notification.viewedAt ? undefined : 'var(--mantine-primary-color-light)'}
                >
                  <UnstyledButton
                    component={Link}
                    to={notificationLink(notification)}
                    p="sm"
                    display="block"
                    w="100%"
                    data-testid="notification-item"
                    data-unseen={notification.viewedAt ? undefined : 'true'}
                  >
                    <NotificationSummary notification={notification} withCase />
                  </UnstyledButton>
                </Card>
              </li>
            ))}
          </Stack>
        )}
      </ListStates>
      <ListPagination
        page={Math.min(page, pages - 1)}
        pages={pages}
        compact={narrow}
        onChange={(next) => setParams(next > 0 ? { page: String(next) } : {})}
      />
    </Stack>
  );
}
