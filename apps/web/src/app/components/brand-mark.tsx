import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconDental } from '@tabler/icons-react';

/** The logo; `compact` shows only the mark (narrow headers). */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={34} radius="md" aria-hidden>
        <IconDental size={22} />
      </ThemeIcon>
      {!compact && (
        <Text fw={700} size="lg" c="dark">
          Dentflow
        </Text>
      )}
    </Group>
  );
}
