import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CaseDetail, Currency } from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useChangeCaseCurrency } from '../api/set-case';
import { CurrencyPicker } from './currency-picker';

/**
 * The case's currency, and its change while the server allows it (`can` holds `changeCurrency`:
 * the caller may edit the case and it has no live transaction). Re-mount it when the stored case
 * changes, so the choice starts from the stored currency.
 */
export function CaseCurrencyCard({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const change = useChangeCaseCurrency();
  const [chosen, setChosen] = useState<Currency>(detail.caseCurrency);
  const changeable = detail.can.includes('changeCurrency') && !detail.readOnly;
  const current = t(`domain:currencies.${detail.caseCurrency}`);

  const save = () =>
    change.mutate(
      { id: detail.id, caseCurrency: chosen, modifiedAt: detail.modifiedAt },
      {
        onSuccess: () => showSuccess(t('cases:currency.changed')),
        onError: (error) => showError(error),
      },
    );

  return (
    <Card withBorder radius="md" padding="md" data-testid="case-currency">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('cases:currency.title')}
        </Title>
        <Text size="sm">{t('cases:currency.current', { currency: current })}</Text>
        {!changeable && detail.can.includes('edit') && !detail.readOnly && (
          <Text size="sm" c="dimmed">
            {t('cases:currency.locked')}
          </Text>
        )}
        {changeable && (
          <>
            <CurrencyPicker
              value={chosen}
              onChange={setChosen}
              description={t('cases:currency.hint')}
            />
            <Group justify="flex-end">
              <Button
                onClick={save}
                loading={change.isPending}
                disabled={chosen === detail.caseCurrency}
              >
                {t('cases:currency.change')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
