import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { dataGeneralUpdateSchema, type UserProfile } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { useNicknameAvailability } from '../../../lib/nickname-availability';
import { showError } from '../../../lib/notify';
import { NicknameInput } from '../../../lib/ui/nickname-input';
import { AvatarField } from './avatar-field';
import { useSaveProfile } from './use-save-profile';

export function GeneralTab({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const { save, isSaving, dialog } = useSaveProfile(profile);
  const general = profile.dataGeneral;
  const form = useForm({
    initialValues: {
      displayName: general.displayName ?? '',
      fname: general.fname ?? '',
      lname: general.lname ?? '',
      nickName: general.nickName ?? '',
    },
    validate: schemaValidator(dataGeneralUpdateSchema),
  });
  const nicknameStatus = useNicknameAvailability(form.values.nickName, general.nickName ?? '');

  const submit = form.onSubmit((values) => {
    if (nicknameStatus === 'taken') return;
    const trimmed = {
      displayName: values.displayName.trim(),
      fname: values.fname.trim(),
      lname: values.lname.trim(),
      nickName: values.nickName.trim(),
    };
    save(
      { dataGeneral: trimmed },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'NICKNAME_TAKEN') {
            form.setFieldError('nickName', error.message);
          } else {
            form.setErrors(serverFieldErrors(error, 'dataGeneral'));
          }
          showError(error);
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      {dialog}
      <Stack maw={640}>
        <AvatarField profile={profile} />
        <TextInput
          label={t('profile.general.email')}
          value={general.email}
          readOnly
          variant="filled"
          description={t('profile.general.emailHint')}
          autoComplete="email"
        />
        <TextInput
          label={t('profile.general.displayName')}
          required
          {...form.getInputProps('displayName')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('profile.general.fname')}
            required
            autoComplete="given-name"
            {...form.getInputProps('fname')}
          />
          <TextInput
            label={t('profile.general.lname')}
            required
            autoComplete="family-name"
            {...form.getInputProps('lname')}
          />
        </SimpleGrid>
        <NicknameInput
          label={t('profile.general.nickName')}
          required
          status={nicknameStatus}
          {...form.getInputProps('nickName')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={isSaving} disabled={nicknameStatus === 'taken'}>
            {t('profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
