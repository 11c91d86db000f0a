import { isManufacturingKind } from '@dentflow/domain';
import type { ProductRow } from './cases.repository';

/**
 * A product is printed by the provider (printers see the case, the case has a print step) when it
 * is a manufacturing product the client does not print themselves (docs/decisions/011).
 */
export const isPrintableProduct = (product: Pick<ProductRow, 'productKind' | 'clientPrints'>) =>
  isManufacturingKind(product.productKind) && !product.clientPrints;
