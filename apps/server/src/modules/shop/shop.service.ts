import {
  profileCurrency,
  CART_ITEMS_MAX,
  CURRENCIES,
  cartItemSchema,
  couponRejection,
  fitAddressToLimits,
  idSchema,
  isAddressValid,
  mayOrderForCase,
  isZipCodeFormat,
  mayChangeCurrencyOfCase,
  needsDeliveryAddress,
  normalizeCouponCode,
  paymentMethodsUnavailableReason,
  shippingOptionsFor,
  translate,
  zipDigits,
  type Address,
  type CheckoutBody,
  type CheckoutResult,
  type ConfiguredPaymentMethods,
  type CouponLookupResponse,
  type Currency,
  type DataAddress,
  type KnownAddresses,
  type Language,
  type PaymentMethodsUnavailable,
  type QuoteRequest,
  type QuoteResponse,
  type ShippingQuote,
  type SleeveOffer,
} from '@dentflow/domain';
import { z } from 'zod';
import { logFor, type AppContext, type LogScope } from '../../context';
import { findUserById } from '../users';
import { AppError, validationError } from '../../http/app-error';
import { type CaseAccess, caseTransactionStatuses } from '../cases';
import { configuredPaymentMethods, loadEmailsSettings, loadShippingSettings } from '../settings';
import {
  orderTarget,
  orderItemsForCase,
  priceCart,
  sleeveOffers,
  type ShopCaller,
  type ShopUser,
} from './cart-pricing';
import { couponByCode, couponOfRow, couponUsesByUser } from '../coupons';
import { createCasePaymentService } from './case-payment.service';
import { createCheckoutService, newCaseOfCart } from './checkout.service';
import { listRecentShipments } from './shop.repository';

/** How many earlier delivery addresses the checkout offers. */
const KNOWN_DELIVERIES_MAX = 5;

/** The `cart` of a coupon lookup: the checkout's items, its currency and case. */
const lookupCartSchema = z.object({
  items: z.array(cartItemSchema).min(1).max(CART_ITEMS_MAX),
  currency: z.enum(CURRENCIES),
  caseId: idSchema.nullable().optional(),
});

const addressKey = (address: Address) =>
  [address.zipCode, address.country, address.state, address.city, address.address]
    .concat(address.complement ?? '')
    .map((part) => part.trim().toLowerCase())
    .join('|');

export function createShopService(ctx: AppContext) {
  const { db } = ctx;
  const checkoutService = createCheckoutService(ctx);
  const casePayment = createCasePaymentService(ctx);

  async function shopUser(caller: ShopCaller): Promise<ShopUser & { dataAddress: DataAddress }> {
    const user = await findUserById(db, caller.userId);
    if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
    return user;
  }

  /**
   * Why the caller has no payment method for this order, what would help (another currency, when
   * the case may still take it) and whom to write to; null when a method is offered.
   */
  async function whyNoPaymentMethod(
    caller: ShopCaller,
    user: ShopUser,
    currency: Currency,
    access: CaseAccess | null,
    configured: ConfiguredPaymentMethods,
  ): Promise<PaymentMethodsUnavailable | null> {
    const capabilities = {
      physicalCreditCard: user.dataCapabilities?.physicalCreditCard ?? false,
      dentalPrev: user.dataCapabilities?.dentalPrev ?? false,
    };
    const why = paymentMethodsUnavailableReason(capabilities, currency, configured);
    if (!why) return null;
    // A new case opens in the currency the order asks for; a case keeps its own unless it may change.
    const currencyChangeable =
      access === null ||
      mayChangeCurrencyOfCase(
        { userId: caller.userId, roles: caller.roles },
        access.relation,
        access,
        (await caseTransactionStatuses(db, access.caseId)).map((paymentStatus) => ({
          paymentStatus,
        })),
      );
    const { supportEmail } = await loadEmailsSettings(db);
    return { ...why, currency, currencyChangeable, supportEmail: supportEmail || null };
  }

  return {
    listCaseTransactions: casePayment.listForCase,
    payRemainingServices: casePayment.createForCase,

    /**
     * Fills an address from a Brazilian zip code (the route checked its form); any provider
     * trouble is a 503 so the form unlocks.
     */
    async queryAddress(zipCode: string, scope: LogScope): Promise<DataAddress> {
      const result = await ctx.zipLookup.lookup(zipCode);
      switch (result.status) {
        case 'found':
          return fitAddressToLimits(result.address);
        case 'invalid':
          throw new AppError(400, 'INVALID_ZIP');
        case 'not_found':
          throw new AppError(404, 'ZIP_NOT_FOUND');
        case 'unavailable':
          logFor(ctx, scope).warn(
            { provider: ctx.zipLookup.provider, reason: result.reason },
            'zip lookup unavailable',
          );
          throw new AppError(503, 'ZIP_LOOKUP_UNAVAILABLE');
      }
    },

    /**
     * The server's price of an order as far as it is known, and what a checkout would still
     * refuse (the patient of a new case, a case that takes no order, a payment
     * method the caller may not use). Creates nothing.
     */
    async quote(
      caller: ShopCaller,
      body: QuoteRequest,
      language: Language,
    ): Promise<QuoteResponse> {
      const user = await shopUser(caller);
      const { currency, access } = await orderTarget(db, caller, user, body.caseId, body.currency);
      const configured = await configuredPaymentMethods(db, ctx.config);
      // What the checkout would charge: for a case, its services without an order too.
      const content = await orderItemsForCase(db, access ? body.caseId : null, body.items);
      const priced = await priceCart(
        db,
        user,
        { ...body, items: content.items },
        { currency, language, configured },
      );
      const problems = { ...priced.problems };
      if (access) {
        if (
          access.relation !== 'owner' ||
          !mayOrderForCase(access.caseStatus) ||
          access.caseArchived
        ) {
          problems.caseId = 'validation.invalid';
        }
      } else {
        const patient = newCaseOfCart(body.items);
        if ('fields' in patient) Object.assign(problems, patient.fields);
      }
      if (body.paymentMethod && !priced.paymentMethods.includes(body.paymentMethod)) {
        problems.paymentMethod = 'validation.invalid';
      }
      return {
        breakdown: priced.breakdown,
        problems,
        couponRejection: priced.couponRejection,
        paymentMethods: priced.paymentMethods,
        paymentMethodsUnavailable:
          priced.paymentMethods.length > 0
            ? null
            : await whyNoPaymentMethod(caller, user, currency, access, configured),
      };
    },

    checkout(caller: ShopCaller, body: CheckoutBody, language: Language): Promise<CheckoutResult> {
      return checkoutService.checkout(caller, body, language);
    },

    /**
     * Whether a coupon applies to the caller now and, with a cart, what it takes off. An unknown
     * code, a deleted one and one bound to another user answer alike (rejection 'deleted', no
     * type or value), so codes cannot be probed.
     */
    async lookupCoupon(
      caller: ShopCaller,
      rawCode: string,
      cartJson: string | undefined,
      language: Language,
    ): Promise<CouponLookupResponse> {
      let cart: z.infer<typeof lookupCartSchema> | undefined;
      if (cartJson !== undefined) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(cartJson);
        } catch {
          throw validationError({ cart: 'validation.invalid' });
        }
        const checked = lookupCartSchema.safeParse(parsed);
        if (!checked.success) throw validationError({ cart: 'validation.invalid' });
        cart = checked.data;
      }
      const user = await shopUser(caller);
      const code = normalizeCouponCode(rawCode);
      const found = code ? await couponByCode(db, code) : undefined;

      let rejection: CouponLookupResponse['rejection'];
      let discount = 0;
      let currency: Currency;
      if (cart) {
        ({ currency } = await orderTarget(db, caller, user, cart.caseId, cart.currency));
        const priced = await priceCart(
          db,
          user,
          { items: cart.items, shipment: null, coupon: code, currency: cart.currency },
          { currency, language, coupon: found ?? null },
        );
        rejection = priced.couponRejection;
        discount = priced.breakdown.couponDiscount;
      } else {
        currency = profileCurrency(user.dataInfo);
        rejection = found
          ? couponRejection(couponOfRow(found), {
              userId: user.id,
              now: new Date(),
              usesByUser: await couponUsesByUser(db, found.id, user.id),
            })
          : 'deleted';
      }
      // The domain answers 'deleted' for what does not exist for this caller.
      const shown = rejection === 'deleted' ? undefined : found;
      return {
        code,
        applicable: rejection === null,
        rejection,
        message: rejection ? translate(language, 'domain', `couponRejections.${rejection}`) : '',
        coupomType: shown?.coupomType ?? null,
        value: shown?.value ?? null,
        discount,
        currency,
      };
    },

    /** Sleeve manufacturers and their price in the currency asked (default the caller's). */
    async fetchSleeves(caller: ShopCaller, currency?: Currency): Promise<SleeveOffer[]> {
      const chosen = currency ?? profileCurrency((await shopUser(caller)).dataInfo);
      return (await sleeveOffers(db, chosen)).map((sleeve) => ({ ...sleeve, currency: chosen }));
    },

    /**
     * The caller's profile address (null when incomplete) and the complete addresses their
     * earlier orders were delivered to, newest first, without repeats of the profile's.
     */
    async fetchAddress(caller: ShopCaller): Promise<KnownAddresses> {
      const user = await shopUser(caller);
      const profile = isAddressValid(user.dataAddress) ? user.dataAddress : null;
      const seen = new Set(profile ? [addressKey(profile)] : []);
      const deliveries: Address[] = [];
      for (const shipment of await listRecentShipments(db, user.id, 50)) {
        const address = shipment.address;
        if (!needsDeliveryAddress(shipment.shipmentType) || !isAddressValid(address)) continue;
        const key = addressKey(address);
        if (seen.has(key)) continue;
        seen.add(key);
        deliveries.push(address);
        if (deliveries.length === KNOWN_DELIVERIES_MAX) break;
      }
      return { profile, deliveries };
    },

    /** The delivery options that serve a zip code, with fee (in the currency) and days. */
    async shippingPrice(
      caller: ShopCaller,
      zipCode: string,
      currency?: Currency,
    ): Promise<ShippingQuote[]> {
      if (!isZipCodeFormat(zipCode) || !zipDigits(zipCode)) throw new AppError(400, 'INVALID_ZIP');
      const chosen = currency ?? profileCurrency((await shopUser(caller)).dataInfo);
      return shippingOptionsFor(await loadShippingSettings(db), zipCode, chosen);
    },
  };
}
export type ShopService = ReturnType<typeof createShopService>;
