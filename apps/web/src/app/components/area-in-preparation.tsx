import { EmptyState, Title, Stack } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The honest state of a screen whose feature arrives with a later issue: it names the area and
 * says it is being prepared, without showing any made-up data.
 */
export function AreaInPreparation({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      <EmptyState
        icon={<IconTools size={28} />}
        title={t('preparing.title')}
        description={t('preparing.body', { area: title })}
        py="xl"
      />
    </Stack>
  );
}
