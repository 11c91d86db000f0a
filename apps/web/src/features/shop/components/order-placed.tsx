import { Link } from 'react-router';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, type CheckoutResult } from '@dentflow/domain';

/** After the order: its total, that it awaits payment, and the ways on. */
export function OrderPlaced({ result }: { result: CheckoutResult }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" maw={560} mx="auto">
      <Stack align="center" gap="sm" ta="center">
        <IconCircleCheck size={48} color="var(--mantine-color-green-6)" aria-hidden="true" />
        <Title order={1} size="h2">
          {t('shop:placed.title')}
        </Title>
        <Text>
          {t('shop:placed.total')}{' '}
          <Text component="span" fw={700} data-testid="order-total">
            {formatMoney(result.breakdown.total, result.breakdown.currency)}
          </Text>
        </Text>
        <Badge color="yellow" variant="light" size="lg">
          {t('paymentStatuses.awaiting_payment', { ns: 'domain' })}
        </Badge>
        <Text size="sm" c="dimmed">
          {t('shop:placed.next')}
        </Text>
        <Group justify="center" mt="sm">
          <Button
            component={Link}
            to={`/case/${result.caseId}?tab=transactions`}
            data-testid="order-pay-now"
          >
            {t('payments:placed.payNow')}
          </Button>
          <Button component={Link} to={`/case/${result.caseId}`} variant="default">
            {t('shop:placed.openCase', { id: result.caseId })}
          </Button>
          <Button component={Link} to="/shop" variant="subtle">
            {t('shop:placed.backToShop')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
