import { Loader, TextInput, type TextInputProps } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { NicknameStatus } from '../nickname-availability';

interface NicknameInputProps extends TextInputProps {
  status: NicknameStatus;
}

/** The nickname field with the live check's answer (format locally, availability from the server). */
export function NicknameInput({ status, error, ...props }: NicknameInputProps) {
  const { t } = useTranslation();
  const statusError =
    status === 'invalid'
      ? t('validation.invalidNickname', { ns: 'errors' })
      : status === 'taken'
        ? t('nickname.taken')
        : null;
  const description =
    status === 'checking'
      ? t('nickname.checking')
      : status === 'available'
        ? t('nickname.available')
        : status === 'unknown'
          ? t('nickname.unknown')
          : t('nickname.hint');
  return (
    <TextInput
      {...props}
      autoComplete="nickname"
      error={error || statusError}
      description={description}
      rightSection={
        status === 'checking' ? (
          <Loader size={16} />
        ) : status === 'available' ? (
          <IconCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
        ) : null
      }
    />
  );
}
