import { useEffect, useState } from 'react';
import { Badge, Tooltip } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LiveClient } from './live-client';
import { useLiveUpdates } from './use-live-updates';

/** A reconnection at the token's expiry takes a moment: only a longer outage is shown. */
export const OFFLINE_GRACE_MS = 2000;

/**
 * Mounted once in the main layout's header: keeps the live connection open and shows
 * "Offline — reconnecting…" while it is lost.
 */
export function LiveStatus({
  client,
  graceMs = OFFLINE_GRACE_MS,
}: {
  client?: LiveClient;
  graceMs?: number;
}) {
  const { t } = useTranslation();
  const status = useLiveUpdates(client);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (status !== 'offline') {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), graceMs);
    return () => clearTimeout(timer);
  }, [status, graceMs]);

  if (!shown) return null;
  return (
    <Tooltip label={t('live.offlineHint')} withinPortal>
      <Badge
        role="status"
        color="orange"
        variant="light"
        leftSection={<IconPlugConnectedX size={12} />}
        style={{ flexShrink: 0 }}
      >
        {t('live.offline')}
      </Badge>
    </Tooltip>
  );
}
