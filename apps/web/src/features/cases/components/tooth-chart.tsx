import { Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TOOTH_CHART_ROWS, toggleTooth } from '@dentflow/domain';
import './tooth-chart.css';

/**
 * The FDI tooth chart of a per-tooth service: each jaw as the dentist sees the patient (their
 * right on the left), one toggle button per tooth. On a phone each jaw wraps into two rows of
 * eight, so every button stays a finger wide; Tab and Space/Enter choose by keyboard.
 */
export function ToothChart(props: {
  value: readonly number[];
  onChange: (teeth: number[]) => void;
  readOnly?: boolean;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const jaw = (name: 'upper' | 'lower') => (
    <Stack gap={4} role="group" aria-label={t(`cases:serviceData.${name}Jaw`)}>
      <Text size="xs" c="dimmed">
        {t(`cases:serviceData.${name}Jaw`)}
      </Text>
      <SimpleGrid cols={{ base: 8, sm: 16 }} spacing={4} verticalSpacing={4}>
        {TOOTH_CHART_ROWS[name].map((tooth) => {
          const chosen = props.value.includes(tooth);
          return (
            <UnstyledButton
              key={tooth}
              className="df-tooth"
              data-chosen={chosen || undefined}
              aria-pressed={chosen}
              aria-label={t('cases:serviceData.tooth', { n: tooth })}
              data-testid={`tooth-${tooth}`}
              disabled={props.readOnly}
              onClick={() => props.onChange(toggleTooth(props.value, tooth))}
            >
              {tooth}
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
  return (
    <Stack gap="xs">
      {jaw('upper')}
      {jaw('lower')}
      {props.error && (
        <Group>
          <Text size="xs" c="red" role="alert">
            {props.error}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
