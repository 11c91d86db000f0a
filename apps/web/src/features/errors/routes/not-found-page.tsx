import { Link } from 'react-router';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" ta="center">
      <Text fz={40} fw={700} c="dentflow.9" lh={1}>
        404
      </Text>
      <Title order={1} size="h2">
        {t('errorPages.notFoundTitle')}
      </Title>
      <Text c="dimmed">{t('errorPages.notFoundBody')}</Text>
      <Button component={Link} to="/">
        {t('errorPages.goHome')}
      </Button>
    </Stack>
  );
}
