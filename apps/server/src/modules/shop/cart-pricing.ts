/**
 * The one way the server prices a cart (quote, checkout, coupon lookup): every price, the product
 * pairing of each item, the sleeve prices, the shipping fee and the coupon come from the
 * database; the client's cart keeps only what the user chose. The numbers are the domain's
 * `priceOrder` (docs/decisions/014-shop-checkout.md).
 */
import {
  isCombo,
  CURRENCIES,
  INT32_MAX,
  SHIPMENT_TYPE_UNSET,
  SHIPPING_OPTIONS,
  availablePaymentMethods,
  type ConfiguredPaymentMethods,
  cartItemFor,
  checkoutProblems,
  couponRejection,
  emptyShipment,
  isAddressValid,
  isOneOf,
  needsDeliveryAddress,
  normalizeCouponCode,
  priceLanguageFor,
  profileCurrency,
  priceOrder,
  pricingLineFor,
  productName,
  serviceQuantityRange,
  shippingOptionsFor,
  type CartItem,
  type CheckoutBreakdown,
  type CouponRejection,
  type Currency,
  type DataCapabilities,
  type DataInfo,
  type Language,
  type PaymentMethod,
  type Product,
  type Shipment,
  type ShippingSettings,
  type ServiceWithoutOrder,
  type Sleeve,
  isProductOrderable,
  planCaseOrder,
  quantityOfServices,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { findProductsByIds } from '../products';
import { AppError, validationError } from '../../http/app-error';
import { loadCaseAccess, type CaseAccess, servicesWithoutOrder } from '../cases';
import { couponByCode, couponOfRow, couponUsesByUser } from '../coupons';
import { loadShippingSettings } from '../settings';
import { currentStudentDiscount } from '../students';
import {
  findCaseCurrency,
  listSleeves,
  type ShopCouponRow,
  type ShopProductRow,
} from './shop.repository';

/** More sleeves than one guide ever takes. */
export const SLEEVES_QTD_MAX = 100;

export interface ShopCaller {
  userId: number;
  roles: string[];
  ip?: string | undefined;
}

export interface ShopUser {
  id: number;
  dataInfo: DataInfo;
  dataCapabilities: DataCapabilities;
}

export interface PriceCartRequest {
  items: readonly CartItem[];
  shipment: Shipment | null;
  coupon: string | null;
  currency: Currency;
}

export interface PricedCart {
  currency: Currency;
  /** The cart rebuilt from the database products (the client's choices kept). */
  items: CartItem[];
  products: ReadonlyMap<number, ShopProductRow>;
  breakdown: CheckoutBreakdown;
  couponUsesTaken: number;
  /** The applied coupon, or null. */
  coupon: ShopCouponRow | null;
  /** Why the coupon given does not apply (null when none was given or it applies). */
  couponRejection: CouponRejection | null;
  /** Field path → catalogue key of what a checkout refuses. */
  problems: Record<string, string>;
  /** The delivery with the server's fee and days; null when nothing ships. */
  shipment: Shipment | null;
  paymentMethods: PaymentMethod[];
}

/**
 * The case an order goes to and the currency it is priced in: its case's (the case must be
 * visible, else 404), or for a new case (no `caseId`) the one the order asks for — the new case
 * opens in it — else the caller's profile currency.
 */
export async function orderTarget(
  tx: DbOrTx,
  caller: ShopCaller,
  user: ShopUser,
  caseId: number | null | undefined,
  newCaseCurrency?: Currency,
): Promise<{ currency: Currency; access: CaseAccess | null }> {
  if (!caseId) {
    return { currency: newCaseCurrency ?? profileCurrency(user.dataInfo), access: null };
  }
  const access = await loadCaseAccess(tx, caller, caseId);
  if (!access) throw new AppError(404, 'NOT_FOUND');
  const stored = await findCaseCurrency(tx, caseId);
  return {
    currency: isOneOf(CURRENCIES, stored) ? stored : profileCurrency(user.dataInfo),
    access,
  };
}

/** The sleeve catalogue with prices in a currency. */
export async function sleeveOffers(db: DbOrTx, currency: Currency): Promise<Sleeve[]> {
  return (await listSleeves(db)).map((row) => ({
    id: row.id,
    sleeve_manufacture: row.sleeveManufacture,
    sleeve_price: row.prices[currency] ?? 0,
  }));
}

/** The option of a shipment type that serves the address, or null (local withdraw is free). */
function offeredShipping(
  table: ShippingSettings,
  shipment: Shipment,
  currency: Currency,
): { fee: number; days: number } | null {
  if (shipment.shipmentType === SHIPPING_OPTIONS.localWithdraw) {
    const option = table.options.find(
      (o) => o.shipmentType === SHIPPING_OPTIONS.localWithdraw && o.active,
    );
    return option ? { fee: 0, days: option.days } : null;
  }
  const offer = shippingOptionsFor(table, shipment.address.zipCode, currency).find(
    (o) => o.shipmentType === shipment.shipmentType,
  );
  return offer ? { fee: offer.fee, days: offer.days } : null;
}

type CartProduct = Parameters<typeof cartItemFor>[0];
const asCartProduct = (row: ShopProductRow): CartProduct => ({
  id: row.id,
  productType: row.productType as Product['productType'],
  productKind: row.productKind,
  qtdOption: row.qtdOption as Product['qtdOption'],
  innerProducts: row.innerProducts,
});
const asPricedProduct = (row: ShopProductRow) => ({
  id: row.id,
  productType: row.productType as Product['productType'],
  productCategory: row.productCategoryId,
  texts: row.texts,
  price: row.price,
  discount: row.discount,
});

/** An order's items with, per item, the case's services it pays instead of adding new ones. */
export interface CaseOrderItems {
  items: CartItem[];
  reused: ServiceWithoutOrder[][];
}

/**
 * The items of an order for a case (`planCaseOrder`): the cart's items, an item for a product
 * the case already holds without an order taking those services (priced at their quantity, with
 * the cart's sleeve choice when it made one), then the case's other services without an order.
 * Without a case, the cart as it is.
 */
export async function orderItemsForCase(
  tx: DbOrTx,
  caseId: number | null | undefined,
  requested: readonly CartItem[],
): Promise<CaseOrderItems> {
  if (!caseId) return { items: [...requested], reused: requested.map(() => []) };
  const plan = planCaseOrder(requested, await servicesWithoutOrder(tx, caseId));
  const byId = await loadCartProducts(
    tx,
    plan.leftover.map((group) => ({ cartProductId: group.productId })),
  );
  const items = requested.map((item, index) => {
    const reused = plan.reused[index]!;
    return reused.length === 0 ? item : { ...item, quantity: quantityOfServices(reused) };
  });
  for (const group of plan.leftover) {
    const product = byId.get(group.productId);
    // A product deleted since: priceCart refuses it like any unavailable product.
    const item = product
      ? cartItemFor(
          asCartProduct(product),
          product.innerProducts.flatMap((id) => {
            const part = byId.get(id);
            return part ? [asCartProduct(part)] : [];
          }),
        )
      : {
          cartProductId: group.productId,
          productPlanningId: null,
          productManufactureId: null,
          qtdOpt: 1 as const,
          quantity: 1,
          planningExtraData: null,
          manufactureData: null,
        };
    const chosenSleeves = group.services.find((s) => s.manufactureData)?.manufactureData;
    items.push({
      ...item,
      quantity: quantityOfServices(group.services),
      manufactureData: item.manufactureData ? (chosenSleeves ?? item.manufactureData) : null,
    });
  }
  return { items, reused: [...plan.reused, ...plan.leftover.map((group) => group.services)] };
}

/** Loads the cart's products and their combos' inner products. */
async function loadCartProducts(tx: DbOrTx, items: readonly Pick<CartItem, 'cartProductId'>[]) {
  const byId = new Map<number, ShopProductRow>();
  for (const row of await findProductsByIds(
    tx,
    items.map((item) => item.cartProductId),
  )) {
    byId.set(row.id, row);
  }
  const innerIds = [...byId.values()].flatMap((p) => p.innerProducts).filter((id) => !byId.has(id));
  for (const row of await findProductsByIds(tx, innerIds)) byId.set(row.id, row);
  return byId;
}

/**
 * Prices a cart for the caller in `currency` (see `orderTarget`). Throws 400 for what cannot be
 * priced at all (an unavailable product, a quantity out of range, an unknown sleeve, another
 * currency, a delivery option the zip code does not get); what only blocks the checkout comes
 * back as `problems`, and a coupon that does not apply as `couponRejection`.
 */
export async function priceCart(
  tx: DbOrTx,
  user: ShopUser,
  request: PriceCartRequest,
  options: {
    currency: Currency;
    language: Language;
    now?: Date;
    /** The coupon row of `request.coupon` when the caller already read (and locked) it. */
    coupon?: ShopCouponRow | null;
    /** Which configured methods exist (settings' `configuredPaymentMethods`); none when absent. */
    configured?: ConfiguredPaymentMethods;
  },
): Promise<PricedCart> {
  const { currency, language } = options;
  if (request.currency !== currency) throw validationError({ currency: 'validation.invalid' });
  const priceLanguage = priceLanguageFor(currency);
  const byId = await loadCartProducts(tx, request.items);
  const sleeves = await sleeveOffers(tx, currency);
  const problems: Record<string, string> = {};

  const items = request.items.map((requested, index): CartItem => {
    const unavailable = () =>
      new AppError(400, 'PRODUCT_UNAVAILABLE', {
        [`items.${index}.cartProductId`]: 'validation.invalid',
      });
    const product = byId.get(requested.cartProductId);
    // Drafts (not published in the caller's language or the currency's) are not sold.
    if (!product || !isProductOrderable(product, { language, currency })) throw unavailable();
    const inner = product.innerProducts.map((id) => byId.get(id));
    if (isCombo(product) && inner.length === 0) throw unavailable();
    const parts = inner.filter((p): p is ShopProductRow => !!p && !p.deletedAt);
    if (parts.length !== inner.length || parts.some(isCombo)) {
      throw unavailable();
    }

    const { min, max } = serviceQuantityRange(product);
    if (requested.quantity < min || requested.quantity > max) {
      throw validationError({
        [`items.${index}.quantity`]: requested.quantity > max ? 'validation.max' : 'validation.min',
      });
    }

    const rebuilt = cartItemFor(asCartProduct(product), parts.map(asCartProduct));
    const manufacture =
      rebuilt.productManufactureId === null ? undefined : byId.get(rebuilt.productManufactureId);
    let manufactureData: CartItem['manufactureData'] = null;
    if (manufacture) {
      const chosen = requested.manufactureData ?? { sleevesManufacture: null, sleevesQtd: 0 };
      // Sleeves are sold only with the kit or sleeve option of the manufacturing product.
      manufactureData = {
        sleevesManufacture:
          manufacture.enableKit || manufacture.enableSleeve ? chosen.sleevesManufacture : null,
        sleevesQtd: manufacture.enableSleeve ? chosen.sleevesQtd : 0,
      };
      const field = `items.${index}.manufactureData`;
      if (
        manufactureData.sleevesManufacture !== null &&
        !sleeves.some((s) => s.id === manufactureData?.sleevesManufacture)
      ) {
        throw validationError({ [`${field}.sleevesManufacture`]: 'validation.invalid' });
      }
      if (manufactureData.sleevesQtd > SLEEVES_QTD_MAX) {
        throw validationError({ [`${field}.sleevesQtd`]: 'validation.max' });
      }
      // Sleeves without a manufacturer could not be priced.
      if (manufactureData.sleevesQtd > 0 && manufactureData.sleevesManufacture === null) {
        problems[`${field}.sleevesManufacture`] = 'validation.required';
      }
    }
    return {
      ...rebuilt,
      quantity: requested.quantity,
      planningExtraData: requested.planningExtraData,
      manufactureData,
    };
  });

  // Delivery: only what ships needs one; the fee and days are the shipping table's.
  const ships = items.some(
    (item) =>
      item.productManufactureId !== null && byId.get(item.productManufactureId)?.shipping === true,
  );
  let shipment: Shipment | null = null;
  if (ships) {
    const requested = request.shipment ?? emptyShipment();
    let option: Shipment['shipmentOption'] = null;
    const chosen =
      requested.shipmentType !== SHIPMENT_TYPE_UNSET &&
      (!needsDeliveryAddress(requested.shipmentType) || isAddressValid(requested.address));
    if (chosen) {
      option = offeredShipping(await loadShippingSettings(tx), requested, currency);
      if (!option) {
        throw new AppError(400, 'SHIPPING_UNAVAILABLE', {
          'shipment.shipmentType': 'validation.invalid',
        });
      }
    }
    shipment = { ...requested, shipmentOption: option };
  }

  // Coupon: checked by the domain's rules against this cart; else the instructor discount.
  let coupon: ShopCouponRow | null = null;
  let rejection: CouponRejection | null = null;
  const code = request.coupon ? normalizeCouponCode(request.coupon) : '';
  if (code) {
    const found = options.coupon !== undefined ? options.coupon : await couponByCode(tx, code);
    const cartProducts = items.flatMap((item) =>
      [item.cartProductId, item.productPlanningId, item.productManufactureId].filter(
        (id): id is number => id !== null,
      ),
    );
    rejection = found
      ? couponRejection(couponOfRow(found), {
          userId: user.id,
          now: options.now ?? new Date(),
          usesByUser: await couponUsesByUser(tx, found.id, user.id),
          cart: {
            productIds: cartProducts,
            categoryIds: cartProducts.map((id) => byId.get(id)!.productCategoryId),
          },
        })
      : 'deleted';
    if (found && !rejection) coupon = found;
  }

  const capabilities = user.dataCapabilities;
  const instructorDiscountPercent = await currentStudentDiscount(tx, capabilities);
  const pricedProducts = new Map([...byId.values()].map((p) => [p.id, asPricedProduct(p)]));
  const pricingInput = {
    lines: items.map((item) => pricingLineFor(item, pricedProducts, priceLanguage, sleeves)),
    coupon: coupon ? couponOfRow(coupon) : null,
    instructorDiscountPercent,
    shippingFee: shipment?.shipmentOption?.fee ?? 0,
  };
  const priced = priceOrder(pricingInput);
  // A coupon replaces the instructor discount even when smaller: the summary says what it forwent.
  const instructorDiscountForgone =
    coupon && instructorDiscountPercent > 0
      ? priceOrder({ ...pricingInput, coupon: null }).instructorDiscount
      : 0;
  if (priced.subtotal + priced.shippingFee > INT32_MAX) {
    throw validationError({ items: 'validation.max' });
  }

  for (const problem of checkoutProblems(items, shipment, byId)) {
    if (problem.kind === 'shipment') {
      problems.shipment = 'validation.required';
      continue;
    }
    const index = items.findIndex((item) => item.cartProductId === problem.cartProductId);
    const field = problem.kind === 'sleeveManufacturer' ? 'sleevesManufacture' : 'sleevesQtd';
    problems[`items.${index}.manufactureData.${field}`] = 'validation.required';
  }

  const breakdown: CheckoutBreakdown = {
    currency,
    lines: priced.lines.map((line, index) => ({
      ...line,
      name: productName(byId.get(line.cartProductId)!, language),
      quantity: items[index]!.quantity,
    })),
    planningPrice: priced.planningPrice,
    manufacturePrice: priced.manufacturePrice,
    sleevesPrice: priced.sleevesPrice,
    subtotal: priced.subtotal,
    comboDiscount: priced.comboDiscount,
    couponDiscount: priced.couponDiscount,
    instructorDiscount: priced.instructorDiscount,
    shippingFee: priced.shippingFee,
    total: priced.total,
    coupon: coupon?.code ?? null,
    couponTerms: coupon ? { coupomType: coupon.coupomType, value: coupon.value } : null,
    instructorPercent: instructorDiscountPercent,
    instructorDiscountForgone,
  };

  return {
    currency,
    items,
    products: byId,
    breakdown,
    couponUsesTaken: priced.couponUsesTaken,
    coupon,
    couponRejection: rejection,
    problems,
    shipment,
    paymentMethods: availablePaymentMethods(
      {
        physicalCreditCard: capabilities?.physicalCreditCard ?? false,
        dentalPrev: capabilities?.dentalPrev ?? false,
      },
      currency,
      options.configured ?? { pix: false, paypal: false, pagseguro: false },
    ),
  };
}
