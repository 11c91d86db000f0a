import { Link } from 'react-router';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center">
      <Title order={1} size="h2">
        {t('errorPages.notAuthorizedTitle')}
      </Title>
      <Text c="dimmed">{t('errorPages.notAuthorizedBody')}</Text>
      <Group>
        <Button component={Link} to="/">
          {t('errorPages.goHome')}
        </Button>
        <Button component={Link} to="/login" variant="light">
          {t('auth.goToLogin')}
        </Button>
      </Group>
    </Stack>
  );
}
