import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage, type Language } from '@dentflow/domain';
import { getAccessToken } from '../../lib/api-client';
import { chooseLanguage, currentLanguage } from '../../lib/i18n';
import { showError } from '../../lib/notify';
import { useSetProfile } from '../../features/profile/api/set-profile';

/**
 * The explicit language switch: kept on this browser and, when logged in, in the profile.
 * A native select: keyboard and screen-reader friendly, and light for the login bundle.
 */
/** `compact` (narrow headers): the short codes PT / EN / ES instead of the full names. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const setProfile = useSetProfile();
  const active = currentLanguage();

  const choose = async (language: Language) => {
    await chooseLanguage(language);
    if (getAccessToken()) {
      setProfile.mutate({ dataInfo: { language } }, { onError: showError });
    }
  };

  return (
    <NativeSelect
      aria-label={t('language.label')}
      value={active}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (isLanguage(value)) void choose(value);
      }}
      leftSection={<IconLanguage size={16} />}
      data={LANGUAGES.map((language) => ({
        value: language,
        label: t(compact ? `language.short.${language}` : `language.names.${language}`),
      }))}
      w={compact ? 88 : 190}
      size="sm"
    />
  );
}
