import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_ADDRESS,
  SHIPMENT_ADDRESS_TYPES,
  SHIPMENT_TYPE_UNSET,
  SHIPPING_OPTIONS,
  emptyShipment,
  formatMoney,
  unmask,
  type Address,
  type CartAction,
  type Currency,
  type KnownAddresses,
  type Shipment,
} from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { AddressFields } from '../../profile/components/address-fields';
import { useShippingOptions } from '../api/get-shipping-price';
import { shippingOptionLabel } from './labels';

/** Fewer digits than this cannot be a zip code worth asking the shipping table about. */
const MIN_ZIP_DIGITS = 5;

type Choice = 'profile' | 'other' | `delivery-${number}`;

const sameAddress = (a: Address, b: Address) =>
  (Object.keys(EMPTY_ADDRESS) as (keyof Address)[]).every(
    (key) => (a[key] ?? '').trim() === (b[key] ?? '').trim(),
  );

const formatAddress = (address: Address) =>
  [
    address.address,
    address.complement,
    address.city,
    address.state,
    address.zipCode,
    address.country,
  ]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');

function initialChoice(known: KnownAddresses, shipment: Shipment): Choice {
  if (shipment.addressType === SHIPMENT_ADDRESS_TYPES.profile && known.profile) return 'profile';
  if (shipment.addressType === SHIPMENT_ADDRESS_TYPES.other) {
    const index = known.deliveries.findIndex((d) => sameAddress(d, shipment.address));
    return index >= 0 ? `delivery-${index}` : 'other';
  }
  if (known.profile) return 'profile';
  return known.deliveries.length > 0 ? 'delivery-0' : 'other';
}

/**
 * Step 2 (only when something ships): where to deliver (the profile address, an earlier delivery
 * or another one) and how (the options that serve its zip code, with fee and days). Choosing an
 * option sets the cart's shipment.
 */
export function AddressStep({
  known,
  knownLoading,
  knownError,
  shipment,
  currency,
  dispatch,
  error,
}: {
  known: KnownAddresses | undefined;
  knownLoading: boolean;
  knownError: unknown;
  shipment: Shipment;
  currency: Currency;
  dispatch: (action: CartAction) => void;
  error: string | undefined;
}) {
  if (knownLoading) {
    return (
      <Stack gap="sm" aria-busy="true">
        <Skeleton h={60} />
        <Skeleton h={60} />
      </Stack>
    );
  }
  return (
    <AddressChoice
      known={known ?? { profile: null, deliveries: [] }}
      knownError={knownError}
      shipment={shipment}
      currency={currency}
      dispatch={dispatch}
      error={error}
    />
  );
}

function AddressChoice({
  known,
  knownError,
  shipment,
  currency,
  dispatch,
  error,
}: {
  known: KnownAddresses;
  knownError: unknown;
  shipment: Shipment;
  currency: Currency;
  dispatch: (action: CartAction) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<Choice>(() => initialChoice(known, shipment));
  const [other, setOther] = useState<Address>(() =>
    initialChoice(known, shipment) === 'other' && shipment.addressType !== SHIPMENT_TYPE_UNSET
      ? { ...EMPTY_ADDRESS, ...shipment.address }
      : { ...EMPTY_ADDRESS },
  );

  const address: Address =
    choice === 'profile'
      ? (known.profile ?? EMPTY_ADDRESS)
      : choice === 'other'
        ? other
        : (known.deliveries[Number(choice.slice('delivery-'.length))] ?? EMPTY_ADDRESS);
  const addressType =
    choice === 'profile' ? SHIPMENT_ADDRESS_TYPES.profile : SHIPMENT_ADDRESS_TYPES.other;
  const [zip] = useDebouncedValue(unmask(address.zipCode), choice === 'other' ? 400 : 0);
  const options = useShippingOptions(zip.length >= MIN_ZIP_DIGITS ? zip : null, currency);

  // The chosen option follows the address; another zip code needs the option chosen again.
  const addressKey = JSON.stringify([addressType, address]);
  useEffect(() => {
    if (shipment.addressType === addressType && sameAddress(shipment.address, address)) return;
    const sameZip = unmask(shipment.address.zipCode) === unmask(address.zipCode);
    dispatch({
      type: 'setShipment',
      shipment:
        sameZip && shipment.shipmentOption
          ? { ...shipment, addressType, address: { ...address } }
          : { ...emptyShipment(), addressType, address: { ...address } },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the address itself
  }, [addressKey]);

  const chosenType =
    shipment.shipmentType === SHIPMENT_TYPE_UNSET ? null : String(shipment.shipmentType);

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="sm">
        <Title order={2} size="h4" mb="xs">
          {t('shop:address.where')}
        </Title>
        {knownError ? (
          <Text size="sm" c="dimmed" mb="xs">
            {errorMessage(knownError)}
          </Text>
        ) : null}
        <Radio.Group
          value={choice}
          onChange={(value) => setChoice(value as Choice)}
          aria-label={t('shop:address.where')}
        >
          <Stack gap="xs">
            {known.profile && (
              <Radio
                value="profile"
                label={t('shop:address.profile')}
                description={formatAddress(known.profile)}
              />
            )}
            {known.deliveries.map((delivery, index) => (
              <Radio
                key={index}
                value={`delivery-${index}`}
                label={t('shop:address.earlier', { n: index + 1 })}
                description={formatAddress(delivery)}
              />
            ))}
            <Radio value="other" label={t('shop:address.other')} />
          </Stack>
        </Radio.Group>
        {choice === 'other' && (
          <Stack mt="md">
            <AddressFields value={other} onChange={setOther} />
          </Stack>
        )}
      </Card>

      <Card withBorder radius="md" padding="sm">
        <Title order={2} size="h4" mb="xs">
          {t('shop:address.how')}
        </Title>
        {zip.length < MIN_ZIP_DIGITS ? (
          <Text size="sm" c="dimmed">
            {t('shop:address.needZip')}
          </Text>
        ) : options.isLoading ? (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">{t('shop:address.loadingOptions')}</Text>
          </Group>
        ) : options.isError ? (
          <Alert color="red" title={t('shop:address.optionsFailed')}>
            <Text size="sm">{errorMessage(options.error)}</Text>
            <Button
              size="xs"
              mt="sm"
              variant="light"
              color="red"
              onClick={() => void options.refetch()}
            >
              {t('shop:list.retry')}
            </Button>
          </Alert>
        ) : (options.data ?? []).length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('shop:address.noOptions')}
          </Text>
        ) : (
          <Radio.Group
            value={chosenType}
            onChange={(value) => {
              const option = options.data?.find((o) => String(o.shipmentType) === value);
              if (!option) return;
              dispatch({
                type: 'setShipment',
                shipment: {
                  addressType,
                  address: { ...address },
                  shipmentType: option.shipmentType,
                  shipmentOption: { fee: option.fee, days: option.days },
                },
              });
            }}
            aria-label={t('shop:address.how')}
            error={error}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {(options.data ?? []).map((option) => {
                const free =
                  option.shipmentType === SHIPPING_OPTIONS.localWithdraw || option.fee === 0;
                return (
                  <Radio.Card
                    key={option.shipmentType}
                    value={String(option.shipmentType)}
                    radius="md"
                    p="sm"
                  >
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator />
                      <Stack gap={2}>
                        <Text fw={600}>{shippingOptionLabel(option.shipmentType)}</Text>
                        <Text size="sm">
                          {free ? t('shop:summary.free') : formatMoney(option.fee, option.currency)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {t('shop:address.days', { n: option.days })}
                        </Text>
                      </Stack>
                    </Group>
                  </Radio.Card>
                );
              })}
            </SimpleGrid>
          </Radio.Group>
        )}
        {error && (zip.length < MIN_ZIP_DIGITS || !(options.data ?? []).length) && (
          <Text size="sm" c="red" mt="xs" role="alert">
            {error}
          </Text>
        )}
      </Card>
    </Stack>
  );
}
