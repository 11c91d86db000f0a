import { useRouteError } from 'react-router';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError } from '../lazy-route';

/** A page failed to load (chunk time-out, network, or an unexpected render error). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const isChunk =
    error instanceof ChunkLoadError ||
    (error instanceof Error &&
      /dynamically imported module|Importing a module script/i.test(error.message));
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" maw={420} ta="center">
        <Title order={1} size="h2">
          {t('feedback.error')}
        </Title>
        <Text c="dimmed">
          {isChunk ? t('feedback.chunkLoadError') : t('feedback.unexpectedError')}
        </Text>
        <Button onClick={() => window.location.reload()}>{t('feedback.reload')}</Button>
      </Stack>
    </Center>
  );
}
