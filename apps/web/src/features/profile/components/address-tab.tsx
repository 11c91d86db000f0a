import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { dataAddressFormSchema, type DataAddress, type UserProfile } from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError } from '../../../lib/notify';
import { AddressFields } from './address-fields';
import { LocationField } from './location-field';
import { useSaveProfile } from './use-save-profile';

/** Address form of the profile (the fields and the zip lookup: `AddressFields`). */
export function AddressTab({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const { save, isSaving, dialog } = useSaveProfile(profile);
  const address = profile.dataAddress;

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

  return (
    <form onSubmit={submit} noValidate>
      {dialog}
      <Stack maw={640}>
        <AddressFields
          value={form.values}
          onChange={(next) => form.setValues(next)}
          errors={form.errors as Partial<Record<keyof DataAddress, React.ReactNode>>}
        />
        <LocationField profile={profile} />
        <Group justify="flex-end">
          <Button type="submit" loading={isSaving}>
            {t('profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
