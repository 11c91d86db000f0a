import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  GENDERS,
  dataAddressFormSchema,
  dataGeneralUpdateSchema,
  isLanguage,
  maskPhone,
  type AdminUser,
  type AdminUserSetBody,
  type DataAddress,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { AddressFields } from '../../profile/components/address-fields';
import { InfoFields, infoPayload, useInfoForm } from '../../profile/components/info-fields';
import { useSetUser } from '../api/set-user';
import { ReadOnlyFields } from './read-only-fields';

/** Saves one section of the user; field errors of that section land on its inputs. */
function useSaveSection(user: AdminUser) {
  const { t } = useTranslation();
  const setUser = useSetUser(user.id);
  const save = (body: AdminUserSetBody, onFieldErrors: (error: unknown) => void) =>
    setUser.mutate(body, {
      onSuccess: () => showSuccess(t('admin:users.saved')),
      onError: (error) => {
        onFieldErrors(error);
        showError(error);
      },
    });
  return { save, isSaving: setUser.isPending };
}

function SaveButton({ loading, section }: { loading: boolean; section: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={loading} data-testid={`user-${section}-save`}>
        {t('admin:users.save')}
      </Button>
    </Group>
  );
}

/** General data: names and nickname (the email is the verified login, shown only). */
export function GeneralSection({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const general = user.dataGeneral;
  const { save, isSaving } = useSaveSection(user);
  const form = useForm({
    initialValues: {
      displayName: general.displayName,
      fname: general.fname,
      lname: general.lname,
      nickName: general.nickName,
    },
    validate: schemaValidator(dataGeneralUpdateSchema),
  });

  if (!user.canEdit) {
    return (
      <ReadOnlyFields
        fields={[
          { label: t('profile.general.email'), value: general.email },
          { label: t('profile.general.displayName'), value: general.displayName },
          { label: t('profile.general.fname'), value: general.fname },
          { label: t('profile.general.lname'), value: general.lname },
          { label: t('profile.general.nickName'), value: general.nickName },
        ]}
      />
    );
  }

  const submit = form.onSubmit((values) =>
    save(
      {
        dataGeneral: {
          displayName: values.displayName.trim(),
          fname: values.fname.trim(),
          lname: values.lname.trim(),
          nickName: values.nickName.trim(),
        },
      },
      (error) => {
        if (error instanceof ApiError && error.code === 'NICKNAME_TAKEN') {
          form.setFieldError('nickName', error.message);
        } else {
          form.setErrors(serverFieldErrors(error, 'dataGeneral'));
        }
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('profile.general.email')}
          value={general.email}
          readOnly
          variant="filled"
        />
        <TextInput
          label={t('profile.general.displayName')}
          required
          {...form.getInputProps('displayName')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('profile.general.fname')} required {...form.getInputProps('fname')} />
          <TextInput label={t('profile.general.lname')} required {...form.getInputProps('lname')} />
        </SimpleGrid>
        <TextInput
          label={t('profile.general.nickName')}
          required
          {...form.getInputProps('nickName')}
        />
        <SaveButton loading={isSaving} section="general" />
      </Stack>
    </form>
  );
}

/** Info: language, currency, document, phone, birth date, gender, specialization, bio. */
export function InfoSection({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const info = user.dataInfo;
  const { save, isSaving } = useSaveSection(user);
  const form = useInfoForm(info);
  // Recorded by the platform (sign-in, "use my location"), never typed here.
  const signInFields = [
    { label: t('profile.info.platform'), value: info.platform },
    { label: t('profile.info.location'), value: info.location },
  ];

  if (!user.canEdit) {
    const gender = (GENDERS as readonly string[]).includes(info.gender)
      ? t(`profile.info.genders.${info.gender}`)
      : info.gender;
    return (
      <ReadOnlyFields
        fields={[
          {
            label: t('profile.info.language'),
            value: isLanguage(info.language) ? t(`language.names.${info.language}`) : '',
          },
          {
            label: t('profile.info.currency'),
            value: t(`profile.info.currencies.${info.currency}`),
          },
          {
            label: t('profile.info.typeOfDocument'),
            value: t(`profile.info.documentTypes.${info.typeOfDocument}`),
          },
          { label: t('profile.info.document'), value: info.document },
          {
            label: t('profile.info.phone'),
            value: info.mobile.number
              ? `${maskPhone(info.mobile.number)}${info.mobile.whatsapp ? ' (WhatsApp)' : ''}`
              : '',
          },
          { label: t('profile.info.birthDate'), value: info.birthDate ?? '' },
          { label: t('profile.info.gender'), value: gender },
          { label: t('profile.info.specialization'), value: info.specialization },
          { label: t('profile.info.bio'), value: info.bio },
          ...signInFields,
        ]}
      />
    );
  }

  const submit = form.onSubmit((values) =>
    save({ dataInfo: infoPayload(values) }, (error) =>
      form.setErrors(serverFieldErrors(error, 'dataInfo')),
    ),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ReadOnlyFields fields={signInFields} />
        <InfoFields form={form} />
        <SaveButton loading={isSaving} section="info" />
      </Stack>
    </form>
  );
}

/** Address, with the profile's zip lookup. */
export function AddressSection({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const address = user.dataAddress;
  const { save, isSaving } = useSaveSection(user);
  const form = useForm<DataAddress>({
    initialValues: { ...address },
    validate: schemaValidator(dataAddressFormSchema),
  });

  if (!user.canEdit) {
    return (
      <ReadOnlyFields
        fields={(['zipCode', 'country', 'state', 'city', 'address', 'complement'] as const).map(
          (key) => ({ label: t(`profile.address.${key}`), value: address[key] }),
        )}
      />
    );
  }

  const submit = form.onSubmit((values) => {
    const trimmed = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, value.trim()]),
    ) as DataAddress;
    save({ dataAddress: trimmed }, (error) =>
      form.setErrors(serverFieldErrors(error, 'dataAddress')),
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <AddressFields
          value={form.values}
          onChange={(next) => form.setValues(next)}
          errors={form.errors as Partial<Record<keyof DataAddress, React.ReactNode>>}
        />
        <SaveButton loading={isSaving} section="address" />
      </Stack>
    </form>
  );
}
