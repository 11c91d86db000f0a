import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DISPATCH_TEXT_MAX,
  SHIPPING_OPTIONS,
  isLocalWithdraw,
  type CaseDetail,
} from '@dentflow/domain';
import { serverFieldErrors } from '../../../lib/form';
import { translateErrorKey } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/notify';
import { useDispatchCase } from '../api/dispatch-case';
import { localToday } from './format';
import { DateField } from '../../../lib/ui/date-field';

interface DispatchValues {
  date: string;
  carrier: string;
  trackingCode: string;
}

/** Sedex and PAC are the Brazilian post's: the carrier is filled in, still editable. */
const defaultCarrier = (shipmentType: number | undefined) =>
  shipmentType === SHIPPING_OPTIONS.sedex || shipmentType === SHIPPING_OPTIONS.pac
    ? 'Correios'
    : '';

/**
 * Records the order's dispatch (shown while `productionActions` has `dispatch`): the date, the
 * carrier and an optional tracking code — or, for a local withdraw, only the day it is ready for
 * pickup. Never printed (it is outside the sheet).
 */
export function DispatchForm({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const pickup = isLocalWithdraw(detail.delivery?.shipmentType);
  const dispatch = useDispatchCase(detail.id);
  const form = useForm<DispatchValues>({
    initialValues: {
      date: localToday(),
      carrier: defaultCarrier(detail.delivery?.shipmentType),
      trackingCode: '',
    },
    validate: {
      date: (value) => (value ? null : translateErrorKey('validation.required')),
      carrier: (value) =>
        pickup || value.trim() ? null : translateErrorKey('validation.required'),
    },
  });
  const submit = form.onSubmit((values) =>
    dispatch.mutate(
      pickup
        ? { date: values.date }
        : {
            date: values.date,
            carrier: values.carrier.trim(),
            ...(values.trackingCode.trim() ? { trackingCode: values.trackingCode.trim() } : {}),
          },
      {
        onSuccess: () =>
          showSuccess(t(pickup ? 'cases:dispatch.pickupRecorded' : 'cases:dispatch.recorded')),
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      },
    ),
  );
  const title = t(pickup ? 'cases:dispatch.pickupTitle' : 'cases:dispatch.title');
  return (
    <Card withBorder radius="md" padding="md" className="no-print">
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {t(pickup ? 'cases:dispatch.pickupHint' : 'cases:dispatch.hint')}
            </Text>
          </div>
          <Group align="flex-start" gap="sm" grow preventGrowOverflow={false}>
            <DateField
              label={t(pickup ? 'cases:dispatch.readyDate' : 'cases:dispatch.date')}
              required
              max={localToday()}
              {...form.getInputProps('date')}
            />
            {!pickup && (
              <TextInput
                label={t('cases:dispatch.carrier')}
                required
                maxLength={DISPATCH_TEXT_MAX}
                {...form.getInputProps('carrier')}
              />
            )}
            {!pickup && (
              <TextInput
                label={t('cases:dispatch.trackingCode')}
                maxLength={DISPATCH_TEXT_MAX}
                {...form.getInputProps('trackingCode')}
              />
            )}
          </Group>
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={dispatch.isPending}
              leftSection={<IconTruckDelivery size={16} />}
            >
              {t(pickup ? 'cases:dispatch.markReady' : 'cases:dispatch.record')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
