import { useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  isShipmentComplete,
  type CartAction,
  type CartItem,
  type CartState,
  type CheckoutRequest,
  type CheckoutResult,
  type PaymentMethod,
  type QuoteRequest,
  type ShopProduct,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/notify';
import { useProfile } from '../../profile/api/get-profile';
import { usePlaceOrder } from '../api/checkout';
import { useKnownAddresses } from '../api/fetch-address';
import { useSleeves } from '../api/fetch-sleeves';
import { useShopProducts } from '../api/get-shop-product';
import { cartShips } from '../cart/cart-products';
import { forgetCheckoutAttempt, idempotencyKeyFor } from '../cart/checkout-attempt';
import { useCart } from '../cart/use-cart';
import {
  cartStepBlocked,
  checkoutFieldErrors,
  fieldMessage,
} from '../checkout/checkout-field-errors';
import { useCheckoutCase } from '../checkout/use-checkout-case';
import { useCheckoutQuote } from '../checkout/use-checkout-quote';
import { useCheckoutSteps } from '../checkout/use-checkout-steps';
import { useCouponFeedback } from '../checkout/use-coupon-feedback';
import { AddressStep } from '../components/address-step';
import { CartStep, type PatientName } from '../components/cart-step';
import { CheckoutLayout, CheckoutNavigation } from '../components/checkout-layout';
import { CheckoutSummary } from '../components/checkout-summary';
import { EmptyCheckout } from '../components/empty-checkout';
import { NoPaymentMethod } from '../components/no-payment-method';
import { OrderPlaced } from '../components/order-placed';
import { PaymentStep } from '../components/payment-step';
import { useProfileMissingDialog } from '../../profile/components/profile-missing-dialog';

/** /shop/checkout — steps Cart, Address (only when something ships) and Payment. */
export function CheckoutPage() {
  const { cart, dispatch, ready } = useCart();
  const [placed, setPlaced] = useState<CheckoutResult | null>(null);

  if (placed) return <OrderPlaced result={placed} />;
  if (!ready) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (cart.items.length === 0) return <EmptyCheckout />;
  return <CheckoutFlow cart={cart} dispatch={dispatch} onPlaced={setPlaced} />;
}

function storedPatient(item: CartItem | undefined): PatientName {
  const patient = (item?.planningExtraData as { patient?: Partial<PatientName> } | null)?.patient;
  return { fname: String(patient?.fname ?? ''), lname: String(patient?.lname ?? '') };
}

function CheckoutFlow({
  cart,
  dispatch,
  onPlaced,
}: {
  cart: CartState;
  dispatch: (action: CartAction) => void;
  onPlaced: (result: CheckoutResult) => void;
}) {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const userId = profile?.id ?? 0;
  const [submitError, setSubmitError] = useState<ApiError | Error | null>(null);
  const orderCase = useCheckoutCase(profile, setSubmitError);
  const { caseMode, caseId, currency, target } = orderCase;

  // The products of the cart in that currency (cached, or fetched once each).
  const productQueries = useShopProducts(
    cart.items.map((item) => item.cartProductId),
    currency,
  );
  const products = new Map<number, ShopProduct>();
  for (const query of productQueries) if (query.data) products.set(query.data.id, query.data);
  const productsLoading = productQueries.some((query) => query.isLoading);
  const ships = cartShips(cart.items, products);
  const steps = useCheckoutSteps(ships);
  const { step } = steps;

  const [patient, setPatientState] = useState<PatientName>(() => storedPatient(cart.items[0]));
  const setPatient = (next: PatientName) => {
    setPatientState(next);
    const first = cart.items[0];
    if (first)
      dispatch({
        type: 'setPlanningExtraData',
        cartProductId: first.cartProductId,
        data: { ...(first.planningExtraData ?? {}), patient: next },
      });
  };
  // The coupon the user registered with fills the field until they type in it (the quote applies
  // it when it still applies; the profile stops offering it once a checkout used it).
  const [typedCoupon, setCoupon] = useState<string | null>(null);
  const coupon = typedCoupon ?? profile?.registrationCoupon ?? '';
  const [method, setMethod] = useState<PaymentMethod | null>(null);

  const sleeves = useSleeves(currency, cart.items.length > 0);
  const known = useKnownAddresses();
  const placeOrder = usePlaceOrder();
  const profileMissing = useProfileMissingDialog();

  // What the server is asked to price (and, with a method and a key, to order).
  const items = cart.items.map((item, index) =>
    index === 0 && caseMode === 'new'
      ? {
          ...item,
          planningExtraData: {
            ...(item.planningExtraData ?? {}),
            patient: { fname: patient.fname.trim(), lname: patient.lname.trim() },
          },
        }
      : item,
  );
  const request: QuoteRequest = {
    caseId: caseMode === 'existing' ? caseId : null,
    items,
    shipment: ships ? cart.shipment : null,
    coupon: coupon.trim() || null,
    paymentMethod: method,
    currency,
  };
  const {
    quote,
    updating,
    methods,
    problems: quoteProblems,
    unavailable,
  } = useCheckoutQuote(request);
  const chosenMethod = method && methods.includes(method) ? method : null;
  const couponFeedback = useCouponFeedback(
    coupon,
    { items, currency, caseId: request.caseId },
    quote,
  );

  // Field messages: the server's refusal of the order, then what this screen checks itself
  // (domain rules), then the quote's problems; shown once the user tried to go on.
  const clientErrors = checkoutFieldErrors(
    {
      caseMode,
      patient,
      orderTarget: target,
      caseId,
      items: cart.items,
      shipment: cart.shipment,
      products,
    },
    { t: (key: string) => i18n.t(key), errorMessage },
  );
  const submitFields = submitError instanceof ApiError ? submitError.fields : {};
  const fieldError = (...paths: string[]) =>
    fieldMessage(submitFields, paths) ??
    (steps.showChecks
      ? (fieldMessage(clientErrors, paths) ?? fieldMessage(quoteProblems, paths))
      : undefined);
  const blocked = cartStepBlocked(clientErrors);

  const goNext = () => {
    steps.markAttempted(step);
    if (step === 'cart' && blocked) return;
    if (step === 'address' && !isShipmentComplete(cart.shipment)) return;
    steps.goForward();
  };

  const submit = () => {
    steps.markAttempted('payment');
    if (!chosenMethod || placeOrder.isPending) return;
    if (blocked) {
      steps.setStep('cart');
      return;
    }
    const order: CheckoutRequest = { ...request, items, paymentMethod: chosenMethod };
    // The same order sent again keeps its key: a retry cannot order twice.
    const idempotencyKey = idempotencyKeyFor(userId, JSON.stringify(order));
    setSubmitError(null);
    placeOrder.mutate(
      { ...order, idempotencyKey },
      {
        onSuccess: (result) => {
          forgetCheckoutAttempt(userId);
          orderCase.leaveOrderTarget();
          onPlaced(result);
          dispatch({ type: 'clear' });
        },
        onError: (error) => {
          // An incomplete profile: the dialog sends the user to the tab missing data.
          if (profileMissing.catchRefusal(error)) return;
          setSubmitError(error);
        },
      },
    );
  };

  // What blocks the order, on the payment step: the server's refusal, else the quote's problems.
  let problems: { title: string; messages: string[] } | null = null;
  if (submitError) {
    problems = { title: errorMessage(submitError), messages: Object.values(submitFields) };
  } else if (Object.keys(quoteProblems).length > 0 && !quote.isPlaceholderData) {
    problems = {
      title: t('shop:payment.problems'),
      messages: [...new Set(Object.values(quoteProblems))],
    };
  }

  const stepContent =
    step === 'cart' ? (
      <CartStep
        items={cart.items}
        products={products}
        productsLoading={productsLoading}
        sleeves={sleeves.data ?? []}
        currency={currency}
        dispatch={dispatch}
        caseMode={caseMode}
        onCaseModeChange={orderCase.setCaseMode}
        caseId={caseId}
        onCaseIdChange={orderCase.setCaseId}
        orderTarget={target}
        onLeaveOrderTarget={orderCase.leaveOrderTarget}
        cases={orderCase.cases}
        casesLoading={orderCase.casesLoading}
        patient={patient}
        onPatientChange={setPatient}
        coupon={coupon}
        onCouponChange={setCoupon}
        couponFeedback={couponFeedback}
        registrationCoupon={
          typedCoupon === null && profile?.registrationCoupon ? profile.registrationCoupon : null
        }
        onCaseCurrencyChange={orderCase.setNewCaseCurrency}
        fieldError={fieldError}
      />
    ) : step === 'address' ? (
      <AddressStep
        known={known.data}
        knownLoading={known.isLoading}
        knownError={known.error}
        shipment={cart.shipment}
        currency={currency}
        dispatch={dispatch}
        error={fieldError('shipment')}
      />
    ) : (
      <PaymentStep
        methods={methods}
        loading={quote.isLoading || quote.isFetching}
        value={chosenMethod}
        onChange={setMethod}
        error={
          steps.attempted('payment') && !chosenMethod ? t('shop:payment.chooseMethod') : undefined
        }
        problems={problems}
        unavailable={
          unavailable ? (
            <NoPaymentMethod
              unavailable={unavailable}
              onChangeCurrency={orderCase.switchCurrency}
              changing={orderCase.changingCurrency}
            />
          ) : undefined
        }
      />
    );

  return (
    <CheckoutLayout
      steps={steps.steps}
      active={steps.active}
      onStepClick={steps.goBackTo}
      total={
        quote.data ? formatMoney(quote.data.breakdown.total, quote.data.breakdown.currency) : null
      }
      summary={
        <CheckoutSummary
          breakdown={quote.data?.breakdown}
          loading={quote.isLoading}
          updating={updating}
          error={quote.error}
          onRetry={() => void quote.refetch()}
          ships={ships}
          shippingChosen={cart.shipment.shipmentOption !== null}
        />
      }
    >
      {profileMissing.dialog}
      {stepContent}
      <CheckoutNavigation
        first={steps.active === 0}
        last={step === 'payment'}
        onBack={steps.goBack}
        onNext={goNext}
        onPlaceOrder={submit}
        placing={placeOrder.isPending}
        canPlace={chosenMethod !== null}
      />
    </CheckoutLayout>
  );
}
