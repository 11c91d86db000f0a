import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile, profileWithoutAddress } from '../../../test/profiles';
import { renderRoutes, renderWithApp } from '../../../test/render';
import { AddressTab } from './address-tab';

const addressFields = ['Country', 'State', 'City', 'Address', 'Complement'];
/** Required fields carry an asterisk in their label. */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`));

describe('address tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the fields locked until a lookup, and unlocks them with the server message when it fails', async () => {
    const { calls } = mockFetch(() =>
      fail(
        503,
        'ZIP_LOOKUP_UNAVAILABLE',
        'The address lookup is not available; fill in the address by hand.',
      ),
    );
    renderWithApp(<AddressTab profile={profileWithoutAddress()} />);
    for (const label of addressFields) expect(field(label)).toBeDisabled();

    await userEvent.type(screen.getByLabelText(/Zip code/), '01310-100');

    expect(
      await screen.findByText('The address lookup is not available; fill in the address by hand.'),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['/shop/queryAddress/01310100']);
    for (const label of addressFields) expect(field(label)).toBeEnabled();
  });

  it('fills and unlocks the fields from a successful lookup', async () => {
    mockFetch(() =>
      ok({
        zipCode: '01310100',
        country: 'Brasil',
        state: 'SP',
        city: 'São Paulo',
        address: 'Avenida Paulista',
        complement: '',
      }),
    );
    renderWithApp(<AddressTab profile={profileWithoutAddress()} />);
    await userEvent.type(screen.getByLabelText(/Zip code/), '01310100');

    await waitFor(() => expect(field('City')).toHaveValue('São Paulo'));
    expect(field('Address')).toHaveValue('Avenida Paulista');
    expect(field('Country')).toBeEnabled();
  });

  it('validates the limits from the domain before saving (city 2-60, address 80)', async () => {
    const { calls } = mockFetch(() => ok(completeProfile()));
    const profile = completeProfile();
    renderWithApp(<AddressTab profile={profile} />);
    const user = userEvent.setup();
    await user.clear(field('City'));
    await user.type(field('City'), 'X');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Too short')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('when the save completes an incomplete profile, says so and goes home', async () => {
    const incomplete = profileWithoutAddress();
    const saved = completeProfile();
    mockFetch((call) => {
      if (call.path.startsWith('/shop/queryAddress'))
        return fail(404, 'ZIP_NOT_FOUND', 'Zip code not found');
      return ok(saved);
    });
    const { router } = renderRoutes(
      [
        { path: '/profile-settings', element: <AddressTab profile={incomplete} /> },
        { path: '/', element: <p>home</p> },
      ],
      '/profile-settings',
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Zip code/), '99999999');
    await waitFor(() => expect(field('Country')).toBeEnabled());
    await user.type(field('Country'), 'Brasil');
    await user.type(field('State'), 'SP');
    await user.type(field('City'), 'São Paulo');
    await user.type(field('Address'), 'Avenida Paulista, 1000');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(
      await screen.findByText('Your profile is complete. Welcome to Dentflow!'),
    ).toBeInTheDocument();
  });
});
