import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { sessionRoles, type UserProfile } from '@dentflow/domain';

/** Read only: roles are given by administrators, never changed by the user. */
export function RolesTab({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  return (
    <Stack maw={640}>
      <Text c="dimmed">{t('profile.roles.description')}</Text>
      <Group gap="xs" aria-label={t('profile.tabs.roles')}>
        {sessionRoles(profile.roles).map((role) => (
          <Badge key={role} size="lg" variant={role === 'public' ? 'outline' : 'light'}>
            {t(`roles.${role}`)}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}
