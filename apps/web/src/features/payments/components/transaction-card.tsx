import { Anchor, Badge, Button, Card, Collapse, Divider, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CANCEL_REASONS,
  formatMoney,
  keyOfId,
  maskDocument,
  type CheckoutBreakdown,
  type TransactionView,
} from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { formatBytes } from '../../attachments/attachment-files';
import { PayPanel } from './pay-panel';
import { PaymentStatusBadge } from './payment-status-badge';
import { TransactionActions } from './transaction-actions';

function Amount(props: { label: string; value: string; strong?: boolean; testId: string }) {
  const { label, value, strong } = props;
  return (
    <Stack gap={0} data-testid={props.testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500} size={strong ? 'md' : 'sm'} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Stack>
  );
}

export function Row({ label, value, green }: { label: string; value: string; green?: boolean }) {
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" c={green ? 'green.8' : undefined} style={{ overflowWrap: 'anywhere' }}>
        {label}
      </Text>
      <Text size="sm" c={green ? 'green.8' : undefined} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
}

/** The order lines and discounts the server priced at checkout. */
export function BreakdownLines({ breakdown }: { breakdown: CheckoutBreakdown }) {
  const { t } = useTranslation();
  const money = (amount: number) => formatMoney(amount, breakdown.currency);
  const discounts = [
    { key: 'combo', amount: breakdown.comboDiscount, label: t('payments:card.comboDiscount') },
    {
      key: 'coupon',
      amount: breakdown.couponDiscount,
      label: breakdown.coupon
        ? t('payments:card.couponNamed', { code: breakdown.coupon })
        : t('payments:card.coupon'),
    },
    {
      key: 'instructor',
      amount: breakdown.instructorDiscount,
      label: t('payments:card.instructorDiscount'),
    },
  ].filter((row) => row.amount !== 0);
  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {breakdown.lines.map((line) => (
        <Row
          key={line.cartProductId}
          label={
            line.quantity > 1
              ? t('payments:card.lineQuantity', { name: line.name, n: line.quantity })
              : line.name
          }
          value={money(line.planningPrice + line.manufacturePrice + line.sleevesPrice)}
        />
      ))}
      {discounts.map((row) => (
        <Row key={row.key} label={row.label} value={money(-row.amount)} green />
      ))}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4}>
      <Divider />
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {children}
    </Stack>
  );
}

const byAt = (name: string | undefined, at: string | null) =>
  [name, formatDate(at, true)].filter(Boolean).join(' · ');

/** One transaction of the case: method, status, amounts, receipt, invoice, cancel, actions. */
export function TransactionCard({ transaction }: { transaction: TransactionView }) {
  const { t, i18n } = useTranslation();
  const [details, { toggle }] = useDisclosure(false);
  const money = (amount: number) => formatMoney(amount, transaction.currency);
  const { receipt, invoice, cancel } = transaction;
  const cancelKey = cancel ? keyOfId(CANCEL_REASONS, cancel.reasonId) : undefined;
  const detailsId = `transaction-${transaction.id}-details`;
  const address = invoice?.address;

  return (
    <Card withBorder radius="md" padding="md" data-testid={`transaction-${transaction.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600}>{t(`domain:paymentMethods.${transaction.paymentMethod}`)}</Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('payments:card.reference', { reference: transaction.reference })}
            </Text>
          </Stack>
          <PaymentStatusBadge status={transaction.paymentStatus} />
        </Group>

        <Group gap="xl" align="flex-start">
          <Amount
            label={t('payments:card.services')}
            value={money(transaction.priceServices)}
            testId="transaction-services"
          />
          <Amount
            label={t('payments:card.shipping')}
            value={money(transaction.priceShipping)}
            testId="transaction-shipping"
          />
          <Amount
            label={t('payments:card.total')}
            value={money(transaction.priceTotal)}
            strong
            testId="transaction-total"
          />
        </Group>
        {transaction.breakdown.lines.length > 0 && (
          <div>
            <Button
              variant="subtle"
              size="compact-sm"
              px={0}
              onClick={toggle}
              aria-expanded={details}
              aria-controls={detailsId}
              rightSection={details ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            >
              {details ? t('payments:card.hideDetails') : t('payments:card.showDetails')}
            </Button>
            <Collapse expanded={details} id={detailsId}>
              <BreakdownLines breakdown={transaction.breakdown} />
            </Collapse>
          </div>
        )}

        <Group gap="lg">
          <Text size="xs" c="dimmed">
            {t('payments:card.createdAt', { date: formatDate(transaction.createdAt, true) })}
          </Text>
          {transaction.paidAt && (
            <Text size="xs" c="dimmed">
              {t('payments:card.paidAt', { date: formatDate(transaction.paidAt, true) })}
            </Text>
          )}
        </Group>

        {transaction.actions.includes('pay') && <PayPanel transaction={transaction} />}

        {receipt && (
          <Section title={t('payments:card.receipt')}>
            {receipt.justification && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {receipt.justification}
              </Text>
            )}
            {receipt.fileUrl && (
              <Anchor
                href={receipt.fileUrl}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                data-testid="receipt-file-link"
              >
                <Group gap={4} component="span" wrap="nowrap">
                  <IconDownload size={14} />
                  {[
                    receipt.fileName ?? t('payments:card.receiptFile'),
                    formatBytes(receipt.fileSize, i18n.language),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Group>
              </Anchor>
            )}
            <Text size="xs" c="dimmed">
              {t('payments:card.submitted', {
                who: byAt(receipt.submittedBy?.displayName, receipt.submittedAt),
              })}
            </Text>
            <Text size="xs" c={receipt.authAt ? 'dimmed' : 'orange'}>
              {receipt.authAt
                ? t('payments:card.authorized', {
                    who: byAt(receipt.authUser?.displayName, receipt.authAt),
                  })
                : t('payments:card.receiptPending')}
            </Text>
          </Section>
        )}

        {invoice && (
          <Section title={t('payments:card.invoice')}>
            <Text size="sm">{invoice.customerName}</Text>
            <Text size="sm">
              {t(`domain:documentTypes.${invoice.documentType}`)}:{' '}
              {maskDocument(invoice.documentType, invoice.document)}
            </Text>
            {invoice.email && <Text size="sm">{invoice.email}</Text>}
            {address && (
              <Text size="xs" c="dimmed">
                {[
                  [address.address, address.complement].filter(Boolean).join(', '),
                  [address.city, address.state].filter(Boolean).join(' / '),
                  address.zipCode,
                  address.country,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            )}
            <Text size="sm" fw={500}>
              {invoice.invoiceNumber
                ? t('payments:card.invoiceNumber', { number: invoice.invoiceNumber })
                : t('payments:card.invoiceNumberPending')}
            </Text>
          </Section>
        )}

        {cancel && (
          <Section
            title={cancel.authAt ? t('domain:cancel.authorized') : t('domain:cancel.requested')}
          >
            <Text size="sm">
              {t('payments:card.cancelReason', {
                reason: cancelKey ? t(`domain:cancelReasons.${cancelKey}`) : cancel.reasonId,
              })}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {cancel.description}
            </Text>
            <Text size="xs" c="dimmed">
              {t('payments:card.requested', {
                who: byAt(cancel.requestUser?.displayName, cancel.requestAt),
              })}
            </Text>
            {cancel.authAt ? (
              <Text size="xs" c="dimmed">
                {t('payments:card.authorized', {
                  who: byAt(cancel.authUser?.displayName, cancel.authAt),
                })}
              </Text>
            ) : (
              <Badge
                color="red"
                variant="light"
                radius="sm"
                w="fit-content"
                data-testid="cancel-pending"
              >
                {t('domain:cancel.notAuthorizedYet')}
              </Badge>
            )}
          </Section>
        )}

        <TransactionActions transaction={transaction} />
      </Stack>
    </Card>
  );
}
