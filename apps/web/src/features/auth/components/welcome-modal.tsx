import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hasSeenWelcome, markWelcomeSeen } from '../../../lib/session-storage';

/**
 * Welcome pop-up, on the first visit of /login: new users go to registration; users of
 * the previous platform reset their password (their old password does not carry over).
 */
export function WelcomeModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(() => !hasSeenWelcome());

  const close = (path?: string) => {
    markWelcomeSeen();
    setOpened(false);
    if (path) void navigate(path);
  };

  return (
    <Modal opened={opened} onClose={() => close()} title={t('auth.welcome.title')} centered>
      <Stack>
        <Text>{t('auth.welcome.body')}</Text>
        <Button onClick={() => close('/register')}>{t('auth.welcome.new')}</Button>
        <Button variant="light" onClick={() => close('/forgotPassword')}>
          {t('auth.welcome.old')}
        </Button>
        <Text size="sm" c="dimmed">
          {t('auth.welcome.oldHint')}
        </Text>
      </Stack>
    </Modal>
  );
}
