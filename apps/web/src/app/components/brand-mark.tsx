import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconDental } from '@tabler/icons-react';

export function BrandMark() {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={34} radius="md" aria-hidden>
        <IconDental size={22} />
      </ThemeIcon>
      <Text fw={700} size="lg" c="dark">
        Dentflow
      </Text>
    </Group>
  );
}
