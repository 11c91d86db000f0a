import type { CartItem } from './cart';

/**
 * An order for an existing case never adds copies of what the case already holds: the case's
 * services that no live transaction pays are the order's content. A cart item for the product
 * such services came from (a combo's parts count as the combo) takes them instead of adding new
 * ones, and the case's other such services join the order as items of their own.
 */

/** A service of the case that no live transaction pays (none, or only a cancelled one). */
export interface ServiceWithoutOrder {
  id: number;
  productId: number;
  /** The combo it came from, if any. */
  comboId: number | null;
  quantity: number;
  manufactureData: CartItem['manufactureData'];
}

/** The product a service was ordered as: its combo, else itself. */
export const orderedProductOf = (service: Pick<ServiceWithoutOrder, 'productId' | 'comboId'>) =>
  service.comboId ?? service.productId;

export interface CaseOrderPlan {
  /** Per requested item, the case's services it pays (empty: it adds new services). */
  reused: ServiceWithoutOrder[][];
  /** The case's other services without an order, by the product they were ordered as. */
  leftover: { productId: number; services: ServiceWithoutOrder[] }[];
}

export function planCaseOrder(
  requested: readonly Pick<CartItem, 'cartProductId'>[],
  withoutOrder: readonly ServiceWithoutOrder[],
): CaseOrderPlan {
  const groups = new Map<number, ServiceWithoutOrder[]>();
  for (const service of withoutOrder) {
    const key = orderedProductOf(service);
    groups.set(key, [...(groups.get(key) ?? []), service]);
  }
  const reused = requested.map((item) => {
    const group = groups.get(item.cartProductId) ?? [];
    groups.delete(item.cartProductId);
    return group;
  });
  const leftover = [...groups].map(([productId, services]) => ({ productId, services }));
  return { reused, leftover };
}

/** The quantity an order prices for services it takes: theirs (a combo's parts: the largest). */
export const quantityOfServices = (services: readonly Pick<ServiceWithoutOrder, 'quantity'>[]) =>
  Math.max(1, ...services.map((service) => service.quantity));
