import { EmptyState, Title, Stack } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * The honest state of a screen whose feature arrives with a later issue: it names the area and
 * says it is being prepared, without showing any made-up data. `order` 2 for a section of a page.
 */
export function AreaInPreparation({ titleKey, order = 1 }: { titleKey: string; order?: 1 | 2 }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  return (
    <Stack gap="lg">
      <Title order={order} size={order === 1 ? 'h2' : 'h3'}>
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
