import {
  Alert,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink, IconInfoCircle } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import type { TransactionView } from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { usePaymentLink, usePixCode } from '../api/payment-link';

/** Sends the browser to the provider (a seam for tests: jsdom cannot navigate). */
export const paymentNavigation = {
  assign: (url: string) => window.location.assign(url),
};

function PixPayment({ transaction }: { transaction: TransactionView }) {
  const { t } = useTranslation();
  // The transaction carries the code once the charge exists; otherwise it is created now.
  const link = usePixCode(transaction.id, !transaction.pixCode);
  const code = transaction.pixCode ?? link.data?.pixCode ?? null;

  if (!code) {
    if (link.isError) {
      return (
        <Alert color="red" title={t('feedback.error')} role="alert">
          <Text size="sm">{errorMessage(link.error)}</Text>
          <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void link.refetch()}>
            {t('payments:retry')}
          </Button>
        </Alert>
      );
    }
    if (link.isLoading) {
      return (
        <Center py="md" aria-busy="true">
          <Loader size="sm" aria-label={t('payments:pay.pixLoading')} />
        </Center>
      );
    }
    return <Alert color="yellow">{t('payments:pay.pixUnavailable')}</Alert>;
  }
  return (
    <Stack gap="sm" data-testid="pix-panel">
      <Text size="sm">{t('payments:pay.pixIntro')}</Text>
      <Center>
        <QRCodeSVG
          value={code}
          size={200}
          marginSize={2}
          role="img"
          aria-label={t('payments:pay.pixQr')}
          title={t('payments:pay.pixQr')}
        />
      </Center>
      <TextInput
        label={t('payments:pay.pixCode')}
        value={code}
        readOnly
        data-testid="pix-code"
        onFocus={(event) => event.currentTarget.select()}
        rightSectionWidth={110}
        rightSection={
          <CopyButton value={code}>
            {({ copied, copy }) => (
              <Button
                size="compact-xs"
                variant={copied ? 'filled' : 'light'}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
                data-testid="pix-copy"
              >
                {copied ? t('payments:pay.copied') : t('payments:pay.copy')}
              </Button>
            )}
          </CopyButton>
        }
      />
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
        {t('payments:pay.pixAfter')}
      </Alert>
    </Stack>
  );
}

function WebPayment({ transaction }: { transaction: TransactionView }) {
  const { t } = useTranslation();
  const link = usePaymentLink(transaction.id);
  const provider = transaction.paymentMethod === 'paypal' ? 'PayPal' : 'PagSeguro';
  const pay = () =>
    link.mutate(undefined, {
      onSuccess: (answer) => {
        if (answer.paymentLink) paymentNavigation.assign(answer.paymentLink);
      },
    });
  const noLink = link.isSuccess && !link.data.paymentLink;
  return (
    <Stack gap="xs">
      <Text size="sm">{t('payments:pay.webIntro', { provider })}</Text>
      <Group>
        <Button
          onClick={pay}
          loading={link.isPending || (link.isSuccess && !noLink)}
          leftSection={<IconExternalLink size={16} />}
          data-testid="pay-button"
        >
          {t('payments:pay.webButton', { provider })}
        </Button>
      </Group>
      {(link.isError || noLink) && (
        <Alert color="red" title={t('feedback.error')} role="alert">
          {link.isError ? errorMessage(link.error) : t('payments:pay.linkUnavailable')}
        </Alert>
      )}
    </Stack>
  );
}

/** What paying looks like for the transaction's method ('pay' is among its actions). */
export function PayPanel({ transaction }: { transaction: TransactionView }) {
  const { t } = useTranslation();
  switch (transaction.paymentMethod) {
    case 'pix':
      return <PixPayment transaction={transaction} />;
    case 'paypal':
    case 'pagseguro':
      return <WebPayment transaction={transaction} />;
    case 'physical':
      return (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          {t('payments:pay.physical')}
        </Alert>
      );
    case 'dentalPrev':
      return (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          {t('payments:pay.dentalPrev')}
        </Alert>
      );
  }
}
