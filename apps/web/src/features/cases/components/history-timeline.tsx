import { Alert, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CASE_ACTIONS, CURRENCIES, formatMoney, isOneOf, type CaseEvent } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { errorMessage } from '../../../lib/notify';
import { useCaseHistory } from '../api/get-case-history';

const MOVES: readonly string[] = CASE_ACTIONS;

/**
 * What an event's detail adds to its title: a validation without payment names its reason (and
 * the unpaid amount when the server left money in it for this viewer), an order for a case in
 * progress says it was an upgrade, a dispatch its carrier and tracking code.
 */
function EventDetail({ event }: { event: CaseEvent }) {
  const { t } = useTranslation();
  const { detail } = event;
  if (event.action === 'validate' && detail.paymentOverride) {
    const override = detail.paymentOverride as {
      reason?: unknown;
      unpaidAmount?: unknown;
      currency?: unknown;
    };
    return (
      <>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="history-override">
          {t('cases:history.paymentOverride', { reason: String(override.reason ?? '') })}
        </Text>
        {typeof override.unpaidAmount === 'number' && isOneOf(CURRENCIES, override.currency) && (
          <Text size="sm">
            {t('cases:history.unpaidAmount', {
              amount: formatMoney(override.unpaidAmount, override.currency),
            })}
          </Text>
        )}
      </>
    );
  }
  if (event.action === 'checkout' && detail.upgrade === true) {
    return <Text size="sm">{t('cases:history.upgrade')}</Text>;
  }
  if (event.action === 'dispatched') {
    return (
      <Text size="sm">
        {[detail.carrier, detail.trackingCode]
          .filter((part) => typeof part === 'string' && part)
          .join(' · ')}
      </Text>
    );
  }
  return null;
}

/** The case events, oldest first, as a timeline. */
export function HistoryTimeline({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const history = useCaseHistory(caseId);
  if (history.isLoading) return <Skeleton h={120} />;
  if (history.isError) return <Alert color="red">{errorMessage(history.error)}</Alert>;
  const events = history.data ?? [];
  if (events.length === 0) return <Text c="dimmed">{t('cases:history.empty')}</Text>;
  return (
    <Timeline active={events.length - 1} bulletSize={16} lineWidth={2}>
      {events.map((event) => {
        const label = MOVES.includes(event.action)
          ? t(`domain:caseActions.${event.action}`)
          : t(`cases:history.events.${event.action}`, { defaultValue: event.action });
        return (
          <Timeline.Item key={event.id} title={label}>
            <Stack gap={0}>
              {event.fromStatus && event.toStatus && event.fromStatus !== event.toStatus && (
                <Text size="sm">
                  {t('cases:history.moved', {
                    from: t(`domain:caseStatuses.${event.fromStatus}`),
                    to: t(`domain:caseStatuses.${event.toStatus}`),
                  })}
                </Text>
              )}
              <EventDetail event={event} />
              {event.action === 'currencyChanged' && (
                <Text size="sm">
                  {t('cases:history.currencyChanged', {
                    from: String(event.detail.from ?? ''),
                    to: String(event.detail.to ?? ''),
                  })}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {[event.actor?.displayName, formatDate(event.at, true)].filter(Boolean).join(' · ')}
              </Text>
            </Stack>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
