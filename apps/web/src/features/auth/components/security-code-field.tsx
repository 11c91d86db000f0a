import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The second-factor code input: six digits from the app, or a recovery code when `recovery`
 * (letters too). The browser may offer a one-time code it received.
 */
export function SecurityCodeField(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
  recovery?: boolean;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={props.label ?? t('auth.twoFactor.code')}
      value={props.value}
      onChange={(event) => props.onChange(event.currentTarget.value)}
      error={props.error}
      autoComplete="one-time-code"
      inputMode={props.recovery ? 'text' : 'numeric'}
      maxLength={props.recovery ? 20 : 7}
      required
      data-autofocus
      styles={{ input: { fontFamily: 'monospace', letterSpacing: '0.15em' } }}
    />
  );
}
