import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * While `active` (an upload is running), leaving asks first: the browser's own prompt when the
 * tab closes or reloads, and a dialog when the app navigates elsewhere.
 */
export function LeaveGuard({ active }: { active: boolean }) {
  const { t } = useTranslation();
  // A change of the query counts too: the case view keeps its tab in `?tab=` and unmounts the
  // other tabs, which would stop the uploads.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      active &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  // The upload ended while the dialog was open: nothing to protect any more.
  useEffect(() => {
    if (!active && blocker.state === 'blocked') blocker.proceed();
  }, [active, blocker]);

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t('files:leave.title')}
      centered
    >
      <Stack>
        <Text size="sm">{t('files:leave.message')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            {t('files:leave.stay')}
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            {t('files:leave.leave')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
