import { Link } from 'react-router';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBriefcase } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isCaseUpgradeStatus, personDisplayName, type CaseDetail } from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { useCase } from '../../cases/api/get-case';

/** The case an order is for, as the shop and the checkout show it. */
export interface OrderTarget {
  caseId: number;
  detail: CaseDetail | undefined;
  loading: boolean;
  error: unknown;
}

export function useOrderTarget(caseId: number | null): OrderTarget | null {
  const query = useCase(caseId ?? 0);
  if (caseId === null) return null;
  return { caseId, detail: query.data, loading: query.isLoading, error: query.error };
}

/** The owner may order for it now (before 'finishing', not archived: the server's `can`). */
export const isOrderable = (target: OrderTarget) => target.detail?.can.includes('order') === true;

const patientOf = (detail: CaseDetail | undefined) =>
  detail ? personDisplayName(detail.patient) : '';

/** On the shop: the products chosen now go to this case's order. */
export function OrderForCaseBanner({
  target,
  onLeave,
}: {
  target: OrderTarget;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconBriefcase size={18} />}
      data-testid="order-for-case"
    >
      <Stack gap="xs">
        <Text size="sm">
          {target.detail
            ? t('shop:forCase.banner', { id: target.caseId, patient: patientOf(target.detail) })
            : t('shop:forCase.bannerLoading', { id: target.caseId })}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" component={Link} to={`/case/${target.caseId}`}>
            {t('shop:forCase.backToCase')}
          </Button>
          <Button size="xs" variant="subtle" onClick={onLeave}>
            {t('shop:forCase.stop')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * At checkout: the case this order is for, what happens to its services not paid yet, and
 * whether the order is an upgrade of a case in work.
 */
export function OrderForCaseCard({
  target,
  error,
  onLeave,
}: {
  target: OrderTarget;
  /** A field message for the case (the server refused it, or nothing can be ordered for it). */
  error: string | undefined;
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  const { detail } = target;
  const problem =
    error ??
    (target.error
      ? errorMessage(target.error)
      : detail && !isOrderable(target)
        ? t('shop:forCase.notOrderable')
        : undefined);
  return (
    <Card withBorder radius="md" padding="sm" data-testid="checkout-case">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {detail
            ? t('shop:forCase.title', { id: target.caseId, patient: patientOf(detail) })
            : t('shop:forCase.titleLoading', { id: target.caseId })}
        </Title>
        {problem ? (
          <Text size="sm" c="red" role="alert">
            {problem}
          </Text>
        ) : (
          detail && (
            <>
              <Text size="sm" c="dimmed">
                {t('shop:forCase.unpaidIncluded')}
              </Text>
              {isCaseUpgradeStatus(detail.caseStatus) && (
                <Alert color="yellow" variant="light" data-testid="checkout-upgrade">
                  <Text size="sm">{t('shop:forCase.upgrade')}</Text>
                </Alert>
              )}
            </>
          )
        )}
        <Group gap="xs">
          <Button size="xs" variant="subtle" onClick={onLeave} px={0}>
            {t('shop:forCase.stop')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
