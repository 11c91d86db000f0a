import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UserProfile } from '@dentflow/domain';
import { serverFieldErrors } from '../../../lib/form';
import { chooseLanguage } from '../../../lib/i18n';
import { showError } from '../../../lib/notify';
import { InfoFields, infoPayload, useInfoForm } from './info-fields';
import { useSaveProfile } from './use-save-profile';

/** Info form of the profile (the fields and their rules: `InfoFields`). */
export function InfoTab({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const { save, isSaving, dialog } = useSaveProfile(profile);
  const info = profile.dataInfo;
  const form = useInfoForm(info);

  const submit = form.onSubmit((values) => {
    save(
      {
        dataInfo: infoPayload(values),
      },
      {
        onError: (error) => {
          form.setErrors(serverFieldErrors(error, 'dataInfo'));
          showError(error);
        },
      },
    );
    // The language picked here is also the user's explicit choice on this browser.
    if (values.language !== info.language) void chooseLanguage(values.language);
  });

  return (
    <form onSubmit={submit} noValidate>
      {dialog}
      <Stack maw={640}>
        <InfoFields form={form} ownData />
        <Group justify="flex-end">
          <Button type="submit" loading={isSaving}>
            {t('profile.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
