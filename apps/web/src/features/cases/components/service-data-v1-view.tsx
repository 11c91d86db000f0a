import { Button, Checkbox, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  OLD_LAYOUT_TEETH,
  emptyServiceDataV1,
  serviceDataV1Schema,
  type ServiceDataV1,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';

function readV1(data: unknown): ServiceDataV1 {
  const parsed = serviceDataV1Schema.safeParse(data);
  if (parsed.success) return parsed.data;
  // Legacy records may miss fields: show what is there.
  return {
    ...emptyServiceDataV1(),
    ...(data && typeof data === 'object' ? data : {}),
  } as ServiceDataV1;
}

/**
 * The old layout (dataVersion below 3), read only: it stays valid once its terms are accepted,
 * so the only thing editable (while the case is broad 'new') is accepting the terms.
 */
export function ServiceDataV1View(props: {
  data: unknown;
  readOnly: boolean;
  saving?: boolean;
  onAcceptTerms: (data: ServiceDataV1) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const data = readV1(props.data);
  const [terms, setTerms] = useState(data.terms);
  const yesNo = (value: boolean | null) =>
    value === null ? '—' : value ? t('cases:serviceData.yes') : t('cases:serviceData.no');
  const teeth = (flags: boolean[], numbers: readonly number[]) =>
    numbers.filter((_, index) => flags[index]).join(', ') || '—';
  const rows: [string, string][] = [
    [t('serviceDataSections.jaw', { ns: 'domain' }), data.selectedJaw || '—'],
    [t('cases:serviceData.upperTeeth'), teeth(data.upperJaw, OLD_LAYOUT_TEETH.upper)],
    [t('cases:serviceData.lowerTeeth'), teeth(data.lowerJaw, OLD_LAYOUT_TEETH.lower)],
    [
      t('serviceDataSections.provision', { ns: 'domain' }),
      `${yesNo(data.provision)} ${data.provisionObs}`,
    ],
    [
      t('serviceDataSections.implantSystem', { ns: 'domain' }),
      [data.system, data.subSystem, data.implantModel].filter(Boolean).join(' / ') || '—',
    ],
    [
      t('cases:serviceData.surgicalKit'),
      [data.surgicalKit.manufacture, data.surgicalKit.system].filter(Boolean).join(' / ') || '—',
    ],
    [
      t('serviceDataSections.extractTeeth', { ns: 'domain' }),
      `${yesNo(data.extractTeeth)} ${data.extractInfo}`,
    ],
    [t('cases:serviceData.mockup'), yesNo(data.mockup)],
    [t('serviceDataSections.extra', { ns: 'domain' }), data.extraInfo || '—'],
  ];

  const accept = async () => {
    try {
      await props.onAcceptTerms({ ...data, terms: true });
      showSuccess(t('cases:serviceData.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed">
        {t('cases:serviceData.oldLayout')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('cases:serviceData.termsText')}
      </Text>
      <Group justify="space-between">
        <Checkbox
          label={t('cases:serviceData.acceptTerms')}
          checked={terms}
          disabled={props.readOnly || data.terms}
          onChange={(event) => setTerms(event.currentTarget.checked)}
        />
        {!props.readOnly && !data.terms && (
          // accept reports its own failure in a notification; nothing to await here.
          <Button size="xs" onClick={() => void accept()} disabled={!terms} loading={props.saving}>
            {t('cases:serviceData.save')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
