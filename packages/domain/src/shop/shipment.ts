import { z } from 'zod';
import { amountSchema, boundedIntSchema } from '../common/bounds';
import { addressSchema, isAddressValid, EMPTY_ADDRESS, type Address } from '../common/address';
import { SHIPMENT_TYPE_UNSET, SHIPPING_OPTIONS } from '../constants';

/** Where the parcel goes: the profile address or another one typed at checkout. */
export const SHIPMENT_ADDRESS_TYPES = { profile: 0, other: 1 } as const;

/** Shipment/Delivery; both types default to -1 (not chosen). */
export const shipmentSchema = z.object({
  addressType: boundedIntSchema(SHIPMENT_TYPE_UNSET, SHIPMENT_ADDRESS_TYPES.other),
  address: addressSchema,
  shipmentType: boundedIntSchema(SHIPMENT_TYPE_UNSET, SHIPPING_OPTIONS.motoboy),
  shipmentOption: z.object({ fee: amountSchema, days: boundedIntSchema(0) }).nullable(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

export function emptyShipment(): Shipment {
  return {
    addressType: SHIPMENT_TYPE_UNSET,
    address: { ...EMPTY_ADDRESS },
    shipmentType: SHIPMENT_TYPE_UNSET,
    shipmentOption: null,
  };
}

/** Local withdraw needs no delivery address. */
export const needsDeliveryAddress = (shipmentType: number) =>
  shipmentType !== SHIPPING_OPTIONS.localWithdraw;

/** A shipment is complete with a chosen option and, unless withdrawn locally, a valid address. */
export function isShipmentComplete(shipment: Shipment | null | undefined): boolean {
  if (!shipment || shipment.shipmentType === SHIPMENT_TYPE_UNSET || !shipment.shipmentOption)
    return false;
  return (
    !needsDeliveryAddress(shipment.shipmentType) ||
    isAddressValid(shipment.address as Partial<Address>)
  );
}

export const shippingFee = (shipment: Shipment | null | undefined) =>
  shipment?.shipmentOption?.fee ?? 0;
