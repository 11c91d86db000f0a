import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_ADDRESS,
  addressFormSchema,
  formatMoney,
  type Address,
  type CaseDetail,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { AddressFields } from '../../profile/components/address-fields';
import { isCaseChanged, useSetCase } from '../api/set-case';
import { DispatchStatus, addressLine, shippingOptionName } from './delivery-status';

/** The case's address as a form: only the address goes to the server, with `modifiedAt`. */
function CaseAddressForm({ detail, onDone }: { detail: CaseDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const setCase = useSetCase(detail.id);
  const form = useForm<Address>({
    initialValues: { ...EMPTY_ADDRESS, ...detail.address },
    validate: schemaValidator(addressFormSchema),
  });
  const save = form.onSubmit((values) => {
    const address = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, (value ?? '').trim()]),
    ) as Address;
    setCase.mutate(
      { address, modifiedAt: detail.modifiedAt },
      {
        onSuccess: () => {
          showSuccess(t('cases:delivery.addressSaved'));
          onDone();
        },
        onError: (error) => {
          if (isCaseChanged(error)) {
            showError(new Error(t('cases:general.changedElsewhere')));
            return;
          }
          form.setErrors(serverFieldErrors(error, 'address'));
          showError(error);
        },
      },
    );
  });
  return (
    <form onSubmit={save} noValidate aria-label={t('cases:delivery.editAddress')}>
      <Stack gap="sm">
        <AddressFields
          value={form.values}
          onChange={(next) => form.setValues(next)}
          errors={form.errors as Partial<Record<keyof Address, React.ReactNode>>}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone}>
            {t('cases:delivery.cancelEdit')}
          </Button>
          <Button type="submit" loading={setCase.isPending}>
            {t('cases:delivery.saveAddress')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The General tab's delivery: how the order goes (option, days; the fee and payment method only
 * when the server sends them), where the parcel stands, and the case's address — which the owner
 * (and staff) change until the dispatch (`productionActions` has `editAddress`).
 */
export function DeliveryCard({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { delivery } = detail;
  const mayEdit = detail.productionActions.includes('editAddress');
  const address = addressLine(detail.address);
  return (
    <Card withBorder radius="md" padding="md" data-testid="delivery-card">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            {t('cases:delivery.title')}
          </Title>
          {mayEdit && !editing && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPencil size={14} />}
              onClick={() => setEditing(true)}
            >
              {t('cases:delivery.editAddress')}
            </Button>
          )}
        </Group>
        {delivery && (
          <Stack gap={2}>
            <Text size="sm">
              {shippingOptionName(t, delivery.shipmentType)} ·{' '}
              {t('cases:delivery.days', { count: delivery.days })}
            </Text>
            {delivery.money && (
              <Text size="sm" c="dimmed">
                {t('cases:delivery.fee', {
                  fee: formatMoney(delivery.money.fee, delivery.money.currency),
                  method: t(`domain:paymentMethods.${delivery.money.paymentMethod}`),
                })}
              </Text>
            )}
          </Stack>
        )}
        <DispatchStatus detail={detail} />
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {t('cases:general.address')}
          </Text>
          {editing ? (
            <CaseAddressForm detail={detail} onDone={() => setEditing(false)} />
          ) : address ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="case-address">
              {address}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t('cases:general.noAddress')}
            </Text>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}
