import { useState } from 'react';
import { Link } from 'react-router';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Divider,
  Group,
  Popover,
  Skeleton,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { showError } from '../../../lib/notify';
import { useLastNotifications } from '../api/get-last-notifications';
import { useMarkAllRead } from '../api/mark-all-read';
import { notificationLink } from '../notification-display';
import { NotificationSummary } from './notification-summary';

/** The badge shows up to 99; more reads "99+". */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/** The navbar bell: unseen count, the last five, "See all" and "Mark all read". */
export function NotificationBell() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const last = useLastNotifications();
  const markAllRead = useMarkAllRead();
  const unseen = last.data?.unseen ?? 0;
  const items = last.data?.items ?? [];
  const close = () => setOpened(false);

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={340}
      shadow="md"
      withinPortal
      // The roles go on the button itself, not on the wrapper that also holds the badge.
      withRoles={false}
    >
      <Popover.Target>
        <Box pos="relative">
          {/* No tooltip: it would stay over the open dropdown; the label carries the count. */}
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={
              unseen > 0
                ? t('notifications:bell.labelUnseen', { n: unseen })
                : t('notifications:bell.label')
            }
            aria-expanded={opened}
            aria-haspopup="dialog"
            data-testid="notification-bell"
            onClick={() => setOpened((value) => !value)}
          >
            <IconBell size={20} />
          </ActionIcon>
          {unseen > 0 && (
            <Badge
              size="xs"
              variant="filled"
              color="red"
              circle={unseen < 10}
              pos="absolute"
              top={-2}
              right={-4}
              style={{ pointerEvents: 'none' }}
              aria-hidden
              data-testid="notification-bell-badge"
            >
              {badgeText(unseen)}
            </Badge>
          )}
        </Box>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label={t('notifications:bell.label')} role="dialog">
        <Group justify="space-between" px="md" pt="sm" pb={6}>
          <Text fw={600}>{t('notifications:bell.label')}</Text>
          {unseen > 0 && (
            <Text size="xs" c="dimmed">
              {t('notifications:unseenCount', { n: unseen })}
            </Text>
          )}
        </Group>
        <Divider />
        {last.isLoading ? (
          <Stack gap="xs" p="md" aria-busy="true">
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        ) : last.isError ? (
          <Text size="sm" c="red" p="md">
            {t('notifications:loadError')}
          </Text>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" p="md">
            {t('notifications:bell.empty')}
          </Text>
        ) : (
          <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {items.map((notification) => (
              <li key={notification.id}>
                <UnstyledButton
                  component={Link}
                  to={notificationLink(notification)}
                  onClick={close}
                  px="md"
                  py="xs"
                  w="100%"
                  display="block"
                  data-testid="notification-item"
                  data-unseen={notification.viewedAt ? undefined : 'true'}
                  bg={notification.viewedAt ? undefined : 'var(--mantine-primary-color-light)'}
                >
                  <NotificationSummary notification={notification} />
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        )}
        <Divider />
        <Group justify="space-between" px="md" py="xs" gap="xs">
          <Button component={Link} to="/notifications" variant="subtle" size="xs" onClick={close}>
            {t('notifications:bell.seeAll')}
          </Button>
          <Button
            variant="subtle"
            size="xs"
            disabled={unseen === 0}
            loading={markAllRead.isPending}
            onClick={() => markAllRead.mutate(undefined, { onError: showError })}
            data-testid="notification-bell-mark-all-read"
          >
            {t('notifications:markAllRead')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
