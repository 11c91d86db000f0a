import type { ReactNode } from 'react';
import { Alert, Group, List, Loader, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PaymentMethod } from '@dentflow/domain';

/** Step 3: the payment methods the server offers this caller for this order. */
export function PaymentStep({
  methods,
  loading,
  value,
  onChange,
  error,
  problems,
  unavailable,
}: {
  methods: readonly PaymentMethod[];
  loading: boolean;
  value: PaymentMethod | null;
  onChange: (method: PaymentMethod) => void;
  error: string | undefined;
  /** What still blocks the order (the server's quote or its refusal), already translated. */
  problems: { title: string; messages: string[] } | null;
  /**
   * Why no method is offered and what helps (the server's reason), shown instead of a bare "none",
   * and kept while a quote that would answer the same is on its way.
   */
  unavailable?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        {t('shop:payment.title')}
      </Title>
      {loading && methods.length === 0 && !unavailable ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('shop:payment.loading')}</Text>
        </Group>
      ) : methods.length === 0 ? (
        (unavailable ?? (
          <Text size="sm" c="dimmed">
            {t('shop:payment.none')}
          </Text>
        ))
      ) : (
        <Radio.Group
          value={value}
          onChange={(next) => onChange(next as PaymentMethod)}
          aria-label={t('shop:payment.title')}
          error={error}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {methods.map((method) => (
              <Radio.Card key={method} value={method} radius="md" p="sm">
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator />
                  <Stack gap={2}>
                    <Text fw={600}>{t(`shop:paymentMethods.${method}.label`)}</Text>
                    <Text size="xs" c="dimmed">
                      {t(`shop:paymentMethods.${method}.description`)}
                    </Text>
                  </Stack>
                </Group>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
      )}
      {problems && (
        <Alert color="red" title={problems.title} role="alert">
          {problems.messages.length > 0 && (
            <List size="sm">
              {problems.messages.map((message, index) => (
                <List.Item key={index}>{message}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </Stack>
  );
}
