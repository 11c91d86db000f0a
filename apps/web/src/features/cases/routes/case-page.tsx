import { lazy, Suspense } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  EmptyState,
  Group,
  Loader,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconCalendarDue } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  caseTabsFor,
  isCaseTab,
  isDeadlineNear,
  sessionRoles,
  type CaseTab,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { errorMessage } from '../../../lib/notify';
import { useTabStrip } from '../../../lib/ui/tab-strip';
import { useCaseRoom } from '../../../lib/live/use-live-updates';
import { refreshCase } from '../api/case-cache';
import { useCase } from '../api/get-case';
import { CaseActions } from '../components/case-actions';
import { GeneralTab } from '../components/general-tab';
import { OpenReviewButton } from '../components/open-review-button';
import { ReviewBanner } from '../components/review-banner';
import { StatusBadge } from '../components/status-badge';
import { StatusStepper } from '../components/status-stepper';
import { useChatUnread } from '../../chat/api/chat-channels';
import { useProfile } from '../../profile/api/get-profile';
import { useCaseTabBadges } from '../../notifications/case-tab-badges';

// The attachments tab brings the upload box and the viewers: loaded when opened.
const CaseAttachmentsTab = lazy(() =>
  import('../../attachments/components/attachments-tab').then((module) => ({
    default: module.CaseAttachmentsTab,
  })),
);

// The transactions tab brings the payment dialogs and the Pix QR code: loaded when opened.
const CaseTransactionsTab = lazy(() =>
  import('../../payments/components/transactions-tab').then((module) => ({
    default: module.CaseTransactionsTab,
  })),
);

// The chat brings its channels, messages and composer: loaded when opened.
const CaseChatTab = lazy(() =>
  import('../../chat/components/case-chat-tab').then((module) => ({
    default: module.CaseChatTab,
  })),
);

// The production sheet and the dispatch form (and the print stylesheet): loaded when opened.
const CaseProductionTab = lazy(() =>
  import('../components/production-tab').then((module) => ({
    default: module.CaseProductionTab,
  })),
);

// The people on the case (planner and partner pickers, the user table): loaded when opened.
const UsersTab = lazy(() =>
  import('../components/users-tab').then((module) => ({ default: module.UsersTab })),
);

// The history timeline: loaded when opened.
const HistoryTimeline = lazy(() =>
  import('../components/history-timeline').then((module) => ({
    default: module.HistoryTimeline,
  })),
);

export const parseCaseId = (value: string | undefined) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};

function CaseNotFound() {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<IconAlertTriangle size={28} />}
      title={t('cases:view.notFoundTitle')}
      description={t('cases:view.notFoundBody')}
      py="xl"
    >
      <Button component={Link} to="/cases/new" mt="md">
        {t('cases:view.backToList')}
      </Button>
    </EmptyState>
  );
}

/** /case/:id — the case view: header, stepper, actions, review banner and the tabs. */
export function CasePage() {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const id = parseCaseId(idParam);
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const query = useCase(id);
  const { data: profile } = useProfile();
  // Only the tabs whose calls answer this viewer (no Transactions for a printer, say).
  const tabs: CaseTab[] =
    query.data && profile
      ? caseTabsFor(
          { userId: profile.id, roles: sessionRoles(profile.roles) },
          { ownerId: query.data.ownerId, productionActions: query.data.productionActions },
        )
      : ['general'];
  const tab: CaseTab = isCaseTab(requested) && tabs.includes(requested) ? requested : 'general';
  useCaseRoom(id);
  // Unseen notifications per tab (the chat counts its unread messages).
  const notified = useCaseTabBadges(id, tab);
  const chatUnread = useChatUnread(id);
  const tabCounts: Partial<Record<CaseTab, number>> = { ...notified, chat: chatUnread };
  const queryClient = useQueryClient();
  const tabStrip = useTabStrip(tab);

  if (id === 0) return <CaseNotFound />;
  if (query.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={34} w="60%" />
        <Skeleton h={60} />
        <Skeleton h={36} />
        <Skeleton h={280} />
      </Stack>
    );
  }
  if (query.isError || !query.data) {
    if (
      query.error instanceof ApiError &&
      (query.error.status === 404 || query.error.status === 403)
    ) {
      return <CaseNotFound />;
    }
    return (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(query.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void query.refetch()}>
          {t('cases:list.retry')}
        </Button>
      </Alert>
    );
  }
  const detail = query.data;
  const patientName = `${detail.patient.fname} ${detail.patient.lname}`.trim();
  const near = isDeadlineNear(detail.deadlineAt, new Date(), detail.caseStatus);

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/cases/new" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('cases:view.backToList')}
        </Group>
      </Anchor>
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
                {patientName}
              </Title>
              <Group gap="xs">
                <Text size="sm" c="dimmed">
                  {t('cases:view.caseNumber', { id: detail.id })}
                </Text>
                <StatusBadge status={detail.caseStatus} archived={detail.caseArchived} />
                {detail.caseReview && (
                  <Badge
                    color="orange"
                    variant="light"
                    leftSection={<IconAlertTriangle size={12} />}
                  >
                    {t('cases:list.review')}
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed">
                {t('cases:view.owner', { name: detail.owner.displayName })}
              </Text>
            </Stack>
            <Stack gap={2} align="flex-end">
              <Group
                gap={4}
                c={near ? 'orange' : 'dimmed'}
                data-testid="case-deadline"
                data-deadline-near={near || undefined}
              >
                <IconCalendarDue size={16} />
                <Text size="sm" c={near ? 'orange' : 'dimmed'}>
                  {detail.deadlineAt
                    ? t('cases:list.deadline', { date: formatDate(detail.deadlineAt) })
                    : t('cases:list.noDeadline')}
                </Text>
              </Group>
              {detail.finishAt && (
                <Text size="xs" c="dimmed">
                  {t('cases:view.finishedAt', { date: formatDate(detail.finishAt) })}
                </Text>
              )}
            </Stack>
          </Group>
          <StatusStepper detail={detail} />
          <Group gap="xs" align="flex-start">
            <CaseActions detail={detail} />
            <OpenReviewButton detail={detail} />
          </Group>
        </Stack>
      </Card>
      <ReviewBanner detail={detail} />
      <Tabs
        value={tab}
        onChange={(value) => {
          if (isCaseTab(value)) setParams({ tab: value }, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List {...tabStrip} mb="md">
          {tabs.map((name) => (
            <Tabs.Tab
              key={name}
              value={name}
              rightSection={
                tabCounts[name] ? (
                  <Badge
                    size="sm"
                    variant="light"
                    circle={(tabCounts[name] ?? 0) < 10}
                    title={t('notifications:tabCount', { n: tabCounts[name] })}
                    data-testid={`case-tab-count-${name}`}
                  >
                    {tabCounts[name]}
                  </Badge>
                ) : null
              }
            >
              {t(`cases:view.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="general">
          <GeneralTab detail={detail} />
        </Tabs.Panel>
        <Tabs.Panel value="attachments">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <CaseAttachmentsTab
              caseDetail={detail}
              // A file change moves the case's modifiedAt on the server: a refetch replaces the copy.
              onChanged={() => void refreshCase(queryClient, detail.id)}
            />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="chat">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <CaseChatTab caseId={detail.id} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <UsersTab detail={detail} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="transactions">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <CaseTransactionsTab caseDetail={detail} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="production">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <CaseProductionTab detail={detail} />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <HistoryTimeline caseId={detail.id} />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
