import { checkoutProblems, type CartItem, type Shipment, type ShopProduct } from '@dentflow/domain';
import type { CaseMode, PatientName } from '../components/cart-step';
import { isOrderable, type OrderTarget } from '../components/order-for-case';

/** Where the new case's patient sits in the order: on the first item's planning data. */
export const PATIENT_PATH = 'items.0.planningExtraData.patient';

/** What the rules need of a product of the cart (its inner products are checked as well). */
export type CheckoutRuleProduct = Pick<
  ShopProduct,
  'id' | 'enableKit' | 'enableSleeve' | 'shipping'
> & {
  innerProducts: readonly Pick<ShopProduct, 'id' | 'enableKit' | 'enableSleeve' | 'shipping'>[];
};

export interface CheckoutFieldInput {
  caseMode: CaseMode;
  /** The new case's patient (checked only for a new case). */
  patient: PatientName;
  /** The case this tab orders for ('Order more for this case'), when there is one. */
  orderTarget: OrderTarget | null;
  /** The existing case the user picked (without an order target). */
  caseId: number | null;
  items: readonly CartItem[];
  shipment: Shipment;
  /** The cart's products, by id, as far as they are loaded. */
  products: ReadonlyMap<number, CheckoutRuleProduct>;
}

/** The texts of the messages, in the interface language. */
export interface CheckoutFieldTexts {
  /** Translates a `namespace:key`. */
  t: (key: string) => string;
  errorMessage: (error: unknown) => string;
}

/**
 * What the checkout screen itself finds wrong with the order before asking the server, as field
 * path → message (the paths of the order body, the ones the server's refusal names): the new
 * case's patient, the chosen or targeted case, and the domain's `checkoutProblems` (sleeves of a
 * kit, the shipment when something ships).
 */
export function checkoutFieldErrors(
  input: CheckoutFieldInput,
  { t, errorMessage }: CheckoutFieldTexts,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const required = () => t('errors:validation.required');
  const target = input.orderTarget;
  if (input.caseMode === 'new') {
    if (!input.patient.fname.trim()) errors[`${PATIENT_PATH}.fname`] = required();
    if (!input.patient.lname.trim()) errors[`${PATIENT_PATH}.lname`] = required();
  } else if (target) {
    if (target.error) errors.caseId = errorMessage(target.error);
    else if (!target.detail) errors.caseId = t('shop:forCase.loading');
    else if (!isOrderable(target)) errors.caseId = t('shop:forCase.notOrderable');
  } else if (input.caseId === null) {
    errors.caseId = required();
  }

  const rulesProducts = new Map<number, Omit<CheckoutRuleProduct, 'innerProducts'>>();
  for (const product of input.products.values()) {
    rulesProducts.set(product.id, product);
    for (const inner of product.innerProducts) rulesProducts.set(inner.id, inner);
  }
  for (const problem of checkoutProblems(input.items, input.shipment, rulesProducts)) {
    const message = t(`domain:checkoutProblems.${problem.kind}`);
    if (problem.kind === 'shipment') {
      errors.shipment = message;
      continue;
    }
    const index = input.items.findIndex((item) => item.cartProductId === problem.cartProductId);
    const field = problem.kind === 'sleeveManufacturer' ? 'sleevesManufacture' : 'sleevesQtd';
    errors[`items.${index}.manufactureData.${field}`] = message;
  }
  return errors;
}

/** Whether the cart step blocks going on (everything but the shipment, the next step's). */
export const cartStepBlocked = (errors: Record<string, string>) =>
  Object.keys(errors).some((path) => path !== 'shipment');

/** The message of a field in a map of field path → message: the path itself or a path below it. */
export function fieldMessage(
  errors: Record<string, string>,
  paths: readonly string[],
): string | undefined {
  for (const path of paths) {
    if (errors[path]) return errors[path];
    const below = Object.keys(errors).find((key) => key.startsWith(`${path}.`));
    if (below) return errors[below];
  }
  return undefined;
}
