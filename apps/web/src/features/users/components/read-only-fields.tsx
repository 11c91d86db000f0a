import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Label/value pairs for readers who may not edit (supervisors); an empty value shows a dash. */
export function ReadOnlyFields({ fields }: { fields: { label: string; value: string }[] }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {fields.map(({ label, value }) => (
        <Stack key={label} gap={0}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {value.trim() ? value : t('admin:users.empty')}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
