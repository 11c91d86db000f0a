import type { Address } from './common/address';

/** A complete Brazilian address for the tables of tests that need one (tests only). */
export const SAMPLE_ADDRESS: Address = {
  zipCode: '01001-000',
  country: 'Brasil',
  state: 'SP',
  city: 'São Paulo',
  address: 'Praça da Sé 1',
  complement: '',
};
