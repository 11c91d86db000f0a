import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconBuildingStore, IconClock, IconTruckDelivery } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { SHIPPING_OPTIONS, keyOfId, type Address, type CaseDetail } from '@dentflow/domain';
import { formatDay } from './format';

/** A shipping option's name (0 Sedex, 1 PAC, 2 local withdraw, 3 motoboy). */
export function shippingOptionName(t: TFunction, shipmentType: number): string {
  const key = keyOfId(SHIPPING_OPTIONS, shipmentType);
  return key ? t(`domain:shippingOptions.${key}`) : '';
}

/** An address on one line, empty parts left out. */
export const addressLine = (address: Address | null | undefined): string =>
  address
    ? [
        address.address,
        address.complement,
        address.city,
        address.state,
        address.zipCode,
        address.country,
      ]
        .map((part) => part?.trim())
        .filter(Boolean)
        .join(', ')
    : '';

/**
 * Where the order stands: shipped (date, carrier, tracking code), ready for pickup, or waiting
 * for the dispatch when something ships. Nothing when the case has no delivery and no dispatch.
 */
export function DispatchStatus({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const dispatch = detail.dispatch;
  if (!dispatch) {
    if (!detail.delivery) return null;
    return (
      <Group gap="xs" data-testid="dispatch-status">
        <Badge color="gray" variant="light" leftSection={<IconClock size={12} />}>
          {t('cases:dispatch.waiting')}
        </Badge>
      </Group>
    );
  }
  if (dispatch.kind === 'readyForPickup') {
    return (
      <Group gap="xs" data-testid="dispatch-status">
        <Badge color="teal" variant="light" leftSection={<IconBuildingStore size={12} />}>
          {t('cases:dispatch.readyForPickup')}
        </Badge>
        <Text size="sm">{t('cases:dispatch.readySince', { date: formatDay(dispatch.date) })}</Text>
      </Group>
    );
  }
  return (
    <Stack gap={2} data-testid="dispatch-status">
      <Group gap="xs">
        <Badge color="teal" variant="light" leftSection={<IconTruckDelivery size={12} />}>
          {t('cases:dispatch.shipped')}
        </Badge>
        <Text size="sm">
          {t('cases:dispatch.shippedOn', {
            date: formatDay(dispatch.date),
            carrier: dispatch.carrier ?? '',
          })}
        </Text>
      </Group>
      {dispatch.trackingCode && (
        <Text size="sm">
          {t('cases:dispatch.trackingCode')}{' '}
          <Text span fw={600} ff="monospace" data-testid="tracking-code">
            {dispatch.trackingCode}
          </Text>
        </Text>
      )}
    </Stack>
  );
}
