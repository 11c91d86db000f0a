import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_TYPES, type NotificationTypeKey } from '@dentflow/domain';
import { errorMessage, showError, showSuccess } from '../../../lib/notify';
import { useEmailNotifications, useSaveEmailNotifications } from '../api/email-notifications';

const TYPE_KEYS = Object.keys(NOTIFICATION_TYPES) as NotificationTypeKey[];

/** Profile settings › Notifications: which events also come by email. */
export function EmailNotificationsTab() {
  const { t } = useTranslation();
  const preferences = useEmailNotifications();
  const save = useSaveEmailNotifications();
  // The user's edits; until the first one, the saved choice is shown.
  const [edited, setEdited] = useState<string[] | null>(null);
  const saved = (preferences.data?.eventTypes ?? []).map(String);
  const chosen = edited ?? saved;

  if (preferences.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={24} w="40%" />
        <Skeleton h={220} />
      </Stack>
    );
  }
  if (preferences.isError) {
    return (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(preferences.error)}</Text>
        <Button
          size="xs"
          mt="sm"
          variant="light"
          color="red"
          onClick={() => void preferences.refetch()}
        >
          {t('notifications:retry')}
        </Button>
      </Alert>
    );
  }

  const submit = () =>
    save.mutate(chosen.map(Number), {
      onSuccess: () => {
        setEdited(null);
        showSuccess(t('notifications:email.saved'));
      },
      onError: showError,
    });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="email-notifications-form"
    >
      <Stack maw={560}>
        <Title order={2} size="h4">
          {t('notifications:email.title')}
        </Title>
        <Checkbox.Group
          value={chosen}
          onChange={setEdited}
          label={t('notifications:email.description')}
        >
          <Stack gap="xs" mt="sm">
            {TYPE_KEYS.map((key) => (
              <Checkbox
                key={key}
                value={String(NOTIFICATION_TYPES[key])}
                label={t(`domain:notificationTypes.${key}`)}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Text size="xs" c="dimmed">
          {t('notifications:email.chatHint')}
        </Text>
        <Group>
          <Button type="submit" loading={save.isPending} data-testid="email-notifications-save">
            {t('notifications:email.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
