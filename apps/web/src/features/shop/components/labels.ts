import { QTD_OPTIONS, SHIPPING_OPTIONS, isPlanningKind } from '@dentflow/domain';
import { i18n } from '../../../lib/i18n';

const keyOf = <T extends Record<string, number>>(table: T, id: number) =>
  (Object.keys(table) as (keyof T & string)[]).find((key) => table[key] === id);

/** The label of a quantity option (per case, per arch, per element). */
export function qtdOptionLabel(qtdOption: number): string {
  const key = keyOf(QTD_OPTIONS, qtdOption);
  return key ? i18n.t(`qtdOptions.${key}`, { ns: 'domain' }) : '';
}

/** The label of a shipping option (0 Sedex, 1 Pac, 2 local withdraw, 3 motoboy). */
export function shippingOptionLabel(shipmentType: number): string {
  const key = keyOf(SHIPPING_OPTIONS, shipmentType);
  return key ? i18n.t(`shippingOptions.${key}`, { ns: 'domain' }) : String(shipmentType);
}

export const productKindLabel = (productKind: number) =>
  i18n.t(isPlanningKind(productKind) ? 'productKinds.planning' : 'productKinds.manufacturing', {
    ns: 'domain',
  });

/**
 * A message key the server names (quote problems: `errors` catalogue keys; a few domain labels),
 * in the interface language; an unknown key shows as the generic "Invalid value".
 */
export function problemMessage(key: string): string {
  if (i18n.exists(key, { ns: 'errors' })) return i18n.t(key, { ns: 'errors' });
  if (i18n.exists(key, { ns: 'domain' })) return i18n.t(key, { ns: 'domain' });
  return i18n.t('validation.invalid', { ns: 'errors' });
}
