import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { AddressTab } from './address-tab';

/** A browser whose geolocation answers with `answer` (a position or a refusal). */
function stubGeolocation(
  answer: { coords: { latitude: number; longitude: number } } | { code: number; message: string },
) {
  const getCurrentPosition = vi.fn(
    (success: PositionCallback, failure?: PositionErrorCallback | null) => {
      if ('coords' in answer) success(answer as unknown as GeolocationPosition);
      else failure?.(answer as unknown as GeolocationPositionError);
    },
  );
  vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
  return getCurrentPosition;
}

describe('use my location (address form)', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('asks the browser only on the button, then saves the coordinates in dataInfo.location', async () => {
    const getCurrentPosition = stubGeolocation({
      coords: { latitude: -23.5505199, longitude: -46.6333094 },
    });
    const profile = completeProfile();
    const { calls } = mockFetch((call) =>
      ok({
        ...profile,
        dataInfo: { ...profile.dataInfo, ...(call.body as { dataInfo: object }).dataInfo },
      }),
    );
    renderWithApp(<AddressTab profile={profile} />);
    expect(getCurrentPosition).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Use my location' }));

    await waitFor(() =>
      expect(calls).toContainEqual(
        expect.objectContaining({
          path: '/profile/set',
          body: { dataInfo: { location: '-23.55052, -46.63331' } },
        }),
      ),
    );
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Error getting geo coordinates')).not.toBeInTheDocument();
  });

  it("shows 'Error getting geo coordinates' when the browser refuses, and saves nothing", async () => {
    stubGeolocation({ code: 1, message: 'User denied Geolocation' });
    const { calls } = mockFetch(() => ok({}));
    renderWithApp(<AddressTab profile={completeProfile()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Use my location' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Error getting geo coordinates');
    expect(calls).toHaveLength(0);
  });

  it('says it in Portuguese for a ptBR reader', async () => {
    await applyLanguage('ptBR');
    stubGeolocation({ code: 2, message: 'Position unavailable' });
    mockFetch(() => ok({}));
    renderWithApp(<AddressTab profile={completeProfile()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Usar minha localização' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Erro ao obter as coordenadas geográficas',
    );
  });
});
