import { useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  ADDRESS_LIMITS,
  dataAddressFormSchema,
  unmask,
  type DataAddress,
  type UserProfile,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { errorMessage, showError } from '../../../lib/notify';
import { queryAddress } from '../api/query-address';
import { useSaveProfile } from './use-save-profile';

/** A Brazilian CEP has 8 digits: typing the eighth starts the lookup. */
const ZIP_LOOKUP_DIGITS = 8;

type Lookup = { status: 'idle' | 'loading' | 'found' } | { status: 'failed'; message: string };

const hasAnyAddress = (address: Partial<DataAddress> | undefined) =>
  !!address &&
  [address.country, address.state, address.city, address.address].some((v) => !!v?.trim());

/**
 * Spec §5 address form: the zip lookup fills and unlocks the other fields; when it fails they
 * unlock for manual entry, with the server's message. A saved address starts unlocked.
 */
export function AddressTab({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const { save, isSaving } = useSaveProfile(profile);
  const address = profile.dataAddress;
  const [unlocked, setUnlocked] = useState(() => hasAnyAddress(address));
  const [lookup, setLookup] = useState<Lookup>({ status: 'idle' });
  const lastLookedUp = useRef<string | null>(null);

  const form = useForm({
    initialValues: {
      zipCode: address?.zipCode ?? '',
      country: address?.country ?? '',
      state: address?.state ?? '',
      city: address?.city ?? '',
      address: address?.address ?? '',
      complement: address?.complement ?? '',
    },
    validate: schemaValidator(dataAddressFormSchema),
  });

  const runLookup = async (zip: string) => {
    lastLookedUp.current = zip;
    setLookup({ status: 'loading' });
    try {
      const found = await queryAddress(zip);
      form.setValues({
        zipCode: found.zipCode || zip,
        country: found.country ?? '',
        state: found.state ?? '',
        city: found.city ?? '',
        address: found.address ?? '',
        complement: found.complement ?? '',
      });
      setLookup({ status: 'found' });
    } catch (error) {
      setLookup({ status: 'failed', message: errorMessage(error) });
    } finally {
      setUnlocked(true);
    }
  };

  const zipInput = form.getInputProps('zipCode');
  const onZipChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    zipInput.onChange(event);
    const digits = unmask(event.currentTarget.value);
    if (digits.length === ZIP_LOOKUP_DIGITS && digits !== lastLookedUp.current)
      void runLookup(digits);
  };
  const zipDigits = unmask(form.values.zipCode);

  const submit = form.onSubmit((values) => {
    const trimmed = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, value.trim()]),
    ) as DataAddress;
    save(
      { dataAddress: trimmed },
      {
        onError: (error) => {
          form.setErrors(serverFieldErrors(error, 'dataAddress'));
          showError(error);
        },
      },
    );
  });

  const locked = !unlocked;
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={640}>
        <TextInput
          label={t('profile.address.zipCode')}
          description={t('profile.address.zipHint')}
          required
          autoComplete="postal-code"
          inputMode="numeric"
          maxLength={ADDRESS_LIMITS.zipCode}
          {...zipInput}
          onChange={onZipChange}
          // The lookup button sits right of the input itself, whatever the hint's length.
          inputContainer={(input) => (
            <Group align="flex-start" wrap="nowrap" gap="sm">
              <div style={{ flex: 1 }}>{input}</div>
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
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('profile.address.country')}
            required
            disabled={locked}
            autoComplete="country-name"
            maxLength={ADDRESS_LIMITS.country}
            {...form.getInputProps('country')}
          />
          <TextInput
            label={t('profile.address.state')}
            required
            disabled={locked}
            autoComplete="address-level1"
            maxLength={ADDRESS_LIMITS.state}
            {...form.getInputProps('state')}
          />
        </SimpleGrid>
        <TextInput
          label={t('profile.address.city')}
          required
          disabled={locked}
          autoComplete="address-level2"
          maxLength={ADDRESS_LIMITS.cityMax}
          {...form.getInputProps('city')}
        />
        <TextInput
          label={t('profile.address.address')}
          required
          disabled={locked}
          autoComplete="street-address"
          maxLength={ADDRESS_LIMITS.address}
          {...form.getInputProps('address')}
        />
        <TextInput
          label={t('profile.address.complement')}
          disabled={locked}
          maxLength={ADDRESS_LIMITS.complement}
          {...form.getInputProps('complement')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={isSaving} disabled={locked}>
            {t('profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
