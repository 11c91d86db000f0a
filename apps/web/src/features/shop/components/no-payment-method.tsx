import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Currency, PaymentMethodsUnavailable } from '@dentflow/domain';

/**
 * Why the order has no payment method, as the server's quote says it, in the caller's language:
 * whom to contact and, when the case may still take it, the currency that would have one.
 */
export function NoPaymentMethod({
  unavailable,
  onChangeCurrency,
  changing = false,
}: {
  unavailable: PaymentMethodsUnavailable;
  /** Moves the order to another currency (the new case's choice, or the case's change). */
  onChangeCurrency: (currency: Currency) => void;
  changing?: boolean;
}) {
  const { t } = useTranslation();
  const currencyName = (currency: Currency) => t(`domain:currencies.${currency}`);
  const other =
    unavailable.reason === 'currency' ? unavailable.currenciesWithMethods[0] : undefined;
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={18} />}
      title={
        unavailable.reason === 'currency'
          ? t('shop:payment.unavailable.titleCurrency', {
              currency: currencyName(unavailable.currency),
            })
          : t('shop:payment.unavailable.titleNone')
      }
      data-testid="no-payment-method"
    >
      <Stack gap="xs">
        <Text size="sm">
          {unavailable.supportEmail
            ? t('shop:payment.unavailable.contactEmail', { email: unavailable.supportEmail })
            : t('shop:payment.unavailable.contactLab')}
        </Text>
        {other &&
          (unavailable.currencyChangeable ? (
            <>
              <Text size="sm">
                {t('shop:payment.unavailable.otherCurrency', { currency: currencyName(other) })}
              </Text>
              <Button
                variant="light"
                color="orange"
                loading={changing}
                onClick={() => onChangeCurrency(other)}
                style={{ alignSelf: 'flex-start' }}
              >
                {t('shop:payment.unavailable.changeCurrency', { currency: currencyName(other) })}
              </Button>
            </>
          ) : (
            <Text size="sm">{t('shop:payment.unavailable.locked')}</Text>
          ))}
      </Stack>
    </Alert>
  );
}
