import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatLocation, type UserProfile } from '@dentflow/domain';
import { showError } from '../../../lib/notify';
import { useSaveProfile } from './use-save-profile';

/** Reads the browser's position once; rejects when refused, unavailable or timed out. */
function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new Error('geolocation unavailable'));
      return;
    }
    navigator.geolocation.getCurrentPosition(resolve, reject, {
      enableHighAccuracy: false,
      timeout: 15_000,
      maximumAge: 60_000,
    });
  });
}

/**
 * "Use my location" in the address form: the position is asked of the browser only when the user
 * presses the button, and kept in `dataInfo.location` ("latitude, longitude").
 */
export function LocationField({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const { save, isSaving } = useSaveProfile(profile);
  const [locating, setLocating] = useState(false);
  const [failed, setFailed] = useState(false);
  const stored = profile.dataInfo.location;

  const locate = async () => {
    setFailed(false);
    setLocating(true);
    try {
      const { coords } = await currentPosition();
      const location = formatLocation(coords.latitude, coords.longitude);
      if (!location) throw new Error('invalid coordinates');
      save({ dataInfo: { location } }, { onError: showError });
    } catch {
      setFailed(true);
    } finally {
      setLocating(false);
    }
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Text size="sm" fw={500}>
            {t('profile.address.location')}
          </Text>
          <Text size="sm" c={stored ? undefined : 'dimmed'} data-testid="profile-location">
            {stored || '—'}
          </Text>
        </div>
        <Button
          variant="light"
          leftSection={<IconCurrentLocation size={16} />}
          loading={locating || isSaving}
          onClick={() => void locate()}
        >
          {t('profile.address.useLocation')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('profile.address.locationHint')}
      </Text>
      {failed && (
        <Alert color="red" role="alert">
          {t('profile.address.geoError')}
        </Alert>
      )}
    </Stack>
  );
}
