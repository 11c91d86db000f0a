import { Link } from 'react-router';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Where a payment provider sends the user back. Payments arrive with a later issue: the page
 * says plainly that the payment's state will show in the case, without claiming any outcome.
 */
export function PaymentNoticePage({ provider }: { provider: 'pagseguro' | 'paypal' }) {
  const { t } = useTranslation();
  const providerName = provider === 'paypal' ? 'PayPal' : 'PagSeguro';
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('paymentNotice.title', { provider: providerName })}
      </Title>
      <Alert color="blue" role="status">
        {t('paymentNotice.body', { provider: providerName })}
      </Alert>
      <Text size="sm" c="dimmed">
        {t('paymentNotice.hint')}
      </Text>
      <Button component={Link} to="/">
        {t('errorPages.goHome')}
      </Button>
    </Stack>
  );
}
