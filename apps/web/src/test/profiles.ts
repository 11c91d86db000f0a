import { EMPTY_DATA_CAPABILITIES, emptyDataInfo, type UserProfile } from '@dentflow/domain';

/** A complete profile (general data and address valid), as `profile/get` returns it. */
export function completeProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id: 7,
    created_at: '2026-01-01T00:00:00.000Z',
    verified_at: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-01T00:00:00.000Z',
    roles: ['doctor', 'public'],
    internal: false,
    dataGeneral: {
      displayName: 'Ana Souza',
      fname: 'Ana',
      lname: 'Souza',
      nickName: 'anasouza',
      email: 'ana@example.com',
      avatar: null,
    },
    dataInfo: emptyDataInfo('en'),
    dataAddress: {
      zipCode: '01310100',
      country: 'Brasil',
      state: 'SP',
      city: 'São Paulo',
      address: 'Avenida Paulista, 1000',
      complement: '',
    },
    dataCapabilities: { ...EMPTY_DATA_CAPABILITIES },
    ...overrides,
  };
}

/** A freshly registered user: general data set, no address yet. */
export const profileWithoutAddress = (): UserProfile =>
  completeProfile({
    dataAddress: { zipCode: '', country: '', state: '', city: '', address: '', complement: '' },
  });
