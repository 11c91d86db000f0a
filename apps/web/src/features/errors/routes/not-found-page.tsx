import { Link } from 'react-router';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center">
      <Title order={1} c="dentflow">
        404
      </Title>
      <Title order={2}>{t('errorPages.notFoundTitle')}</Title>
      <Text c="dimmed">{t('errorPages.notFoundBody')}</Text>
      <Button component={Link} to="/">
        {t('errorPages.goHome')}
      </Button>
    </Stack>
  );
}
