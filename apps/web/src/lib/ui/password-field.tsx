import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * PasswordInput with a translated show/hide control. Its name avoids the word "password" so the
 * field's own label stays the only element labelled like it.
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      visibilityToggleButtonProps={{ 'aria-label': t('auth.toggleVisibility') }}
      {...props}
    />
  );
}
