/**
 * Address (zipCode, country, state, city, address, complement). The same shape as the
 * profile's dataAddress, so the profile's schema and validity rule are the single definition.
 */
import {
  dataAddressFormSchema,
  dataAddressSchema,
  isAddressDataValid,
  type DataAddress,
} from '../profile/profile';

export const addressSchema = dataAddressSchema;
export const addressFormSchema = dataAddressFormSchema;
export type Address = DataAddress;
/** Valid when zipCode, country, state, city and address are set (complement optional). */
export const isAddressValid = isAddressDataValid;

export const EMPTY_ADDRESS: Address = Object.freeze({
  zipCode: '',
  country: '',
  state: '',
  city: '',
  address: '',
  complement: '',
});
