import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { editableRoles } from '../user-access';

/** The user's roles as badges (stored roles only; 'public' is every user's). */
export function RoleBadges({ roles }: { roles: readonly string[] }) {
  const { t } = useTranslation();
  const shown = editableRoles(roles);
  if (shown.length === 0) return null;
  return (
    <Group gap={4}>
      {shown.map((role) => (
        <Badge key={role} size="sm" variant="light" color={role === 'admin' ? 'red' : undefined}>
          {t(`roles.${role}`)}
        </Badge>
      ))}
    </Group>
  );
}

export function VerifiedBadge({ verified }: { verified: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="light" color={verified ? 'green' : 'orange'}>
      {verified ? t('admin:users.verified') : t('admin:users.notVerified')}
    </Badge>
  );
}

export function InternalBadge({ internal }: { internal: boolean }) {
  const { t } = useTranslation();
  if (!internal) return null;
  return (
    <Badge size="sm" variant="outline" color="grape">
      {t('admin:users.internal')}
    </Badge>
  );
}
