import { useRef, useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ADDRESS_LIMITS, unmask, type DataAddress } from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { queryAddress } from '../api/query-address';

/** A Brazilian CEP has 8 digits: typing the eighth starts the lookup. */
const ZIP_LOOKUP_DIGITS = 8;

type Lookup = { status: 'idle' | 'loading' | 'found' } | { status: 'failed'; message: string };

export const hasAnyAddress = (address: Partial<DataAddress> | null | undefined) =>
  !!address &&
  [address.country, address.state, address.city, address.address].some((v) => !!v?.trim());

/**
 * Address fields (profile address tab, checkout delivery): the zip lookup fills and
 * unlocks the other fields; when it fails they unlock for manual entry, with the server's
 * message. An address already filled starts unlocked. A complement typed before the lookup stays
 * when the lookup has none.
 */
export function AddressFields({
  value,
  onChange,
  errors = {},
}: {
  value: DataAddress;
  onChange: (address: DataAddress) => void;
  errors?: Partial<Record<keyof DataAddress, ReactNode>>;
}) {
  const { t } = useTranslation();
  const [unlocked, setUnlocked] = useState(() => hasAnyAddress(value));
  const [lookup, setLookup] = useState<Lookup>({ status: 'idle' });
  const lastLookedUp = useRef<string | null>(null);
  const latest = useRef(value);
  latest.current = value;

  const runLookup = async (zip: string) => {
    lastLookedUp.current = zip;
    setLookup({ status: 'loading' });
    try {
      const found = await queryAddress(zip);
      onChange({
        zipCode: found.zipCode || zip,
        country: found.country ?? '',
        state: found.state ?? '',
        city: found.city ?? '',
        address: found.address ?? '',
        complement: found.complement || (latest.current.complement ?? ''),
      });
      setLookup({ status: 'found' });
    } catch (error) {
      setLookup({ status: 'failed', message: errorMessage(error) });
    } finally {
      setUnlocked(true);
    }
  };

  const locked = !unlocked;
  const field = (key: keyof DataAddress) => ({
    value: value[key] ?? '',
    error: errors[key],
    disabled: locked,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      onChange({ ...latest.current, [key]: event.currentTarget.value }),
  });
  const zipDigits = unmask(value.zipCode);

  return (
    <Stack gap="sm">
      <TextInput
        label={t('profile.address.zipCode')}
        description={t('profile.address.zipHint')}
        required
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={ADDRESS_LIMITS.zipCode}
        {...field('zipCode')}
        disabled={false}
        onChange={(event) => {
          onChange({ ...latest.current, zipCode: event.currentTarget.value });
          const digits = unmask(event.currentTarget.value);
          if (digits.length === ZIP_LOOKUP_DIGITS && digits !== lastLookedUp.current)
            void runLookup(digits);
        }}
        // The lookup button sits right of the input itself, whatever the hint's length.
        inputContainer={(input) => (
          <Group align="flex-start" wrap="nowrap" gap="sm">
            <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
            <Button
              variant="light"
              leftSection={<IconSearch size={16} />}
              loading={lookup.status === 'loading'}
              disabled={zipDigits.length === 0}
              onClick={() => void runLookup(zipDigits)}
            >
              {t('profile.address.lookup')}
            </Button>
          </Group>
        )}
      />
      {lookup.status === 'failed' && (
        <Alert color="yellow" title={t('profile.address.lookupFailed')} role="alert">
          {lookup.message}
        </Alert>
      )}
      {locked && (
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setUnlocked(true)}
          ta="left"
        >
          {t('profile.address.manual')}
        </Anchor>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('profile.address.country')}
          required
          autoComplete="country-name"
          maxLength={ADDRESS_LIMITS.country}
          {...field('country')}
        />
        <TextInput
          label={t('profile.address.state')}
          required
          autoComplete="address-level1"
          maxLength={ADDRESS_LIMITS.state}
          {...field('state')}
        />
      </SimpleGrid>
      <TextInput
        label={t('profile.address.city')}
        required
        autoComplete="address-level2"
        maxLength={ADDRESS_LIMITS.cityMax}
        {...field('city')}
      />
      <TextInput
        label={t('profile.address.address')}
        required
        autoComplete="street-address"
        maxLength={ADDRESS_LIMITS.address}
        {...field('address')}
      />
      <TextInput
        label={t('profile.address.complement')}
        maxLength={ADDRESS_LIMITS.complement}
        {...field('complement')}
      />
    </Stack>
  );
}
