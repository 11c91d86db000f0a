import { Alert, Anchor, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  approvalCertificateOf,
  formatMoney,
  historySentences,
  renderHistorySentence,
} from '@dentflow/domain';
import { downloadApiFile } from '../../../lib/download-file';
import { formatDate } from '../../../lib/format-date';
import { errorMessage, showError } from '../../../lib/notify';
import { useCaseHistory } from '../api/get-case-history';

/** Lines a reader may want to find again by their role (the journeys look for them too). */
const TEST_IDS: Record<string, string> = {
  'cases:history.details.paymentOverride': 'history-override',
};

const CERTIFICATE_LINE = 'cases:history.details.certificate';

/** The approval certificate (PDF) of an approve entry, saved by the browser. */
const downloadCertificate = (approvalId: number) =>
  downloadApiFile(`/approval/${approvalId}/certificate`, `approval-${approvalId}.pdf`).catch(
    showError,
  );

/**
 * The case events, oldest first, as a timeline: each event as sentences in the reader's language
 * (the domain's `historySentences`: who did what, with the payment, amount, file, member or
 * status it concerns), then its date.
 */
export function HistoryTimeline({ caseId }: { caseId: number }) {
  const { t } = useTranslation();
  const history = useCaseHistory(caseId);
  if (history.isLoading) return <Skeleton h={120} />;
  if (history.isError) return <Alert color="red">{errorMessage(history.error)}</Alert>;
  const events = history.data ?? [];
  if (events.length === 0) return <Text c="dimmed">{t('cases:history.empty')}</Text>;
  const say = (key: string, params: Record<string, string>) => t(key, params);
  return (
    <Timeline active={events.length - 1} bulletSize={16} lineWidth={2} data-testid="case-history">
      {events.map((event) => {
        const [title, ...details] = historySentences(event);
        const certificate = approvalCertificateOf(event);
        return (
          <Timeline.Item
            key={event.id}
            title={title ? renderHistorySentence(title, say, formatMoney) : null}
            data-testid="history-event"
            styles={{ itemTitle: { overflowWrap: 'anywhere' } }}
          >
            <Stack gap={0}>
              {details.map((line, index) =>
                certificate && line.key === CERTIFICATE_LINE ? (
                  <Anchor
                    key={index}
                    component="button"
                    type="button"
                    size="sm"
                    ta="left"
                    data-testid="history-certificate"
                    onClick={() => void downloadCertificate(certificate.approvalId)}
                  >
                    {renderHistorySentence(line, say, formatMoney)}
                  </Anchor>
                ) : (
                  <Text
                    key={index}
                    size="sm"
                    style={{ overflowWrap: 'anywhere' }}
                    data-testid={TEST_IDS[line.key]}
                  >
                    {renderHistorySentence(line, say, formatMoney)}
                  </Text>
                ),
              )}
              <Text size="xs" c="dimmed">
                {formatDate(event.at, true)}
              </Text>
            </Stack>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
