import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  Badge,
  Button,
  Card,
  Center,
  Collapse,
  EmptyState,
  Grid,
  Group,
  Loader,
  Stack,
  Stepper,
  Text,
  Title,
  UnstyledButton,
  useMatches,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconChevronDown,
  IconChevronUp,
  IconCircleCheck,
  IconShoppingCart,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  checkoutProblems,
  formatMoney,
  isShipmentComplete,
  profileCurrency,
  type CartAction,
  type CartItem,
  type CartState,
  type CheckoutRequest,
  type CheckoutResult,
  type CheckoutStep,
  type Currency,
  type PaymentMethod,
  type QuoteRequest,
  type ShopProduct,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/notify';
import { useCaseList } from '../../cases/api/list-cases';
import { useChangeCaseCurrency } from '../../cases/api/set-case';
import { useProfile } from '../../profile/api/get-profile';
import { usePlaceOrder } from '../api/checkout';
import { useKnownAddresses } from '../api/fetch-address';
import { useSleeves } from '../api/fetch-sleeves';
import { useShopProducts } from '../api/get-shop-product';
import { useCouponLookup } from '../api/lookup-coupon';
import { useQuote } from '../api/quote';
import { cartShips } from '../cart/cart-products';
import { forgetCheckoutAttempt, idempotencyKeyFor } from '../cart/checkout-attempt';
import { useOrderForCase } from '../cart/order-for-case';
import { useCart } from '../cart/use-cart';
import { AddressStep } from '../components/address-step';
import { CartStep, type CaseMode, type PatientName } from '../components/cart-step';
import { CheckoutSummary } from '../components/checkout-summary';
import { problemMessage } from '../components/labels';
import { NoPaymentMethod } from '../components/no-payment-method';
import { isOrderable, useOrderTarget } from '../components/order-for-case';
import { PaymentStep } from '../components/payment-step';

/** How long edits pause before the server prices the order again or checks the coupon. */
export const QUOTE_DEBOUNCE_MS = 300;
const PATIENT_PATH = 'items.0.planningExtraData.patient';

/** /shop/checkout — steps Cart, Address (only when something ships) and Payment. */
export function CheckoutPage() {
  const { t } = useTranslation();
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
  if (cart.items.length === 0) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('shop:checkout.title')}
        </Title>
        <EmptyState
          icon={<IconShoppingCart size={28} />}
          title={t('shop:cart.empty')}
          description={t('shop:checkout.emptyBody')}
          py="xl"
        >
          <Button component={Link} to="/shop">
            {t('shop:cart.goToShop')}
          </Button>
        </EmptyState>
      </Stack>
    );
  }
  return <CheckoutFlow cart={cart} dispatch={dispatch} onPlaced={setPlaced} />;
}

function OrderPlaced({ result }: { result: CheckoutResult }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" maw={560} mx="auto">
      <Stack align="center" gap="sm" ta="center">
        <IconCircleCheck size={48} color="var(--mantine-color-green-6)" aria-hidden="true" />
        <Title order={1} size="h2">
          {t('shop:placed.title')}
        </Title>
        <Text>
          {t('shop:placed.total')}{' '}
          <Text component="span" fw={700} data-testid="order-total">
            {formatMoney(result.breakdown.total, result.breakdown.currency)}
          </Text>
        </Text>
        <Badge color="yellow" variant="light" size="lg">
          {t('paymentStatuses.awaiting_payment', { ns: 'domain' })}
        </Badge>
        <Text size="sm" c="dimmed">
          {t('shop:placed.next')}
        </Text>
        <Group justify="center" mt="sm">
          <Button
            component={Link}
            to={`/case/${result.caseId}?tab=transactions`}
            data-testid="order-pay-now"
          >
            {t('payments:placed.payNow')}
          </Button>
          <Button component={Link} to={`/case/${result.caseId}`} variant="default">
            {t('shop:placed.openCase', { id: result.caseId })}
          </Button>
          <Button component={Link} to="/shop" variant="subtle">
            {t('shop:placed.backToShop')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function storedPatient(item: CartItem | undefined): PatientName {
  const patient = (item?.planningExtraData as { patient?: Partial<PatientName> } | null)?.patient;
  return { fname: String(patient?.fname ?? ''), lname: String(patient?.lname ?? '') };
}

/** Looks a field up in a map of field path → message: the path itself or a path below it. */
function lookup(map: Record<string, string>, paths: string[]): string | undefined {
  for (const path of paths) {
    if (map[path]) return map[path];
    const below = Object.keys(map).find((key) => key.startsWith(`${path}.`));
    if (below) return map[below];
  }
  return undefined;
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
  const wide = useMatches({ base: false, md: true });
  const { data: profile } = useProfile();
  const userId = profile?.id ?? 0;

  // The case: the one this tab orders for (the case page's 'Order more for this case', at any
  // status the server allows), else one of the caller's cases still in broad 'new', or a new one
  // for a patient.
  const orderFor = useOrderForCase();
  const target = useOrderTarget(orderFor.caseId);
  const caseList = useCaseList({ filter: 'new', page: 0, pageSize: 100 });
  const cases = (caseList.data?.items ?? []).filter((item) => item.owner.id === userId);
  const [chosenMode, setCaseMode] = useState<CaseMode>('new');
  const [chosenCaseId, setCaseId] = useState<number | null>(null);
  const caseMode: CaseMode = target ? 'existing' : chosenMode;
  const caseId = target ? target.caseId : chosenCaseId;
  const chosenCase = caseMode === 'existing' ? cases.find((item) => item.id === caseId) : undefined;
  const existing = target?.detail ?? chosenCase;
  // Every amount on this screen is in one currency: the case's, or the one the new case opens in
  // (the profile's unless the user picks the other).
  const [newCaseCurrency, setNewCaseCurrency] = useState<Currency | null>(null);
  const currency = existing?.caseCurrency ?? newCaseCurrency ?? profileCurrency(profile?.dataInfo);
  const changeCaseCurrency = useChangeCaseCurrency();
  const switchCurrency = (next: Currency) => {
    if (caseMode === 'existing' && existing) {
      changeCaseCurrency.mutate(
        { id: existing.id, caseCurrency: next, modifiedAt: existing.modifiedAt },
        { onError: (error) => setSubmitError(error) },
      );
    } else {
      setNewCaseCurrency(next);
    }
  };

  // The products of the cart in that currency (cached, or fetched once each).
  const productQueries = useShopProducts(
    cart.items.map((item) => item.cartProductId),
    currency,
  );
  const products = new Map<number, ShopProduct>();
  for (const query of productQueries) if (query.data) products.set(query.data.id, query.data);
  const productsLoading = productQueries.some((query) => query.isLoading);
  const ships = cartShips(cart.items, products);
  const steps: CheckoutStep[] = ships ? ['cart', 'address', 'payment'] : ['cart', 'payment'];
  const [requestedStep, setStep] = useState<CheckoutStep>('cart');
  const step = steps.includes(requestedStep) ? requestedStep : 'cart';
  const active = steps.indexOf(step);

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
  const [attempted, setAttempted] = useState<Partial<Record<CheckoutStep, boolean>>>({});
  const [submitError, setSubmitError] = useState<ApiError | Error | null>(null);

  const sleeves = useSleeves(currency, cart.items.length > 0);
  const known = useKnownAddresses();
  const placeOrder = usePlaceOrder();

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
  const requestKey = JSON.stringify(request);
  const [debouncedKey] = useDebouncedValue(requestKey, QUOTE_DEBOUNCE_MS);
  const debouncedRequest = useMemo(() => JSON.parse(debouncedKey) as QuoteRequest, [debouncedKey]);
  const quote = useQuote(debouncedRequest.items.length > 0 ? debouncedRequest : null);
  const methods = quote.data?.paymentMethods ?? [];
  const chosenMethod = method && methods.includes(method) ? method : null;

  // Live coupon check (the server's message is already in the caller's language).
  const [debouncedCoupon] = useDebouncedValue(coupon.trim(), QUOTE_DEBOUNCE_MS);
  const couponCheck = useCouponLookup(debouncedCoupon, {
    items,
    currency,
    caseId: request.caseId,
  });
  let couponFeedback: { applicable: boolean; message: string } | null = null;
  if (coupon.trim() && debouncedCoupon === coupon.trim()) {
    if (couponCheck.data) {
      couponFeedback = couponCheck.data.applicable
        ? {
            applicable: true,
            message: t('shop:checkout.couponApplies', {
              code: couponCheck.data.code,
              discount: formatMoney(
                couponCheck.data.discount,
                couponCheck.data.currency ?? currency,
              ),
            }),
          }
        : {
            applicable: false,
            message:
              couponCheck.data.message ||
              i18n.t(`couponRejections.${couponCheck.data.rejection ?? 'deleted'}`, {
                ns: 'domain',
              }),
          };
    } else if (couponCheck.error) {
      couponFeedback = { applicable: false, message: errorMessage(couponCheck.error) };
    } else if (quote.data?.couponRejection && !quote.isPlaceholderData) {
      couponFeedback = {
        applicable: false,
        message: i18n.t(`couponRejections.${quote.data.couponRejection}`, { ns: 'domain' }),
      };
    }
  }

  // Field messages: the server's refusal of the order, then what this screen checks itself
  // (domain rules), then the quote's problems; shown once the user tried to go on.
  const productsForRules = new Map<
    number,
    Pick<ShopProduct, 'id' | 'enableKit' | 'enableSleeve' | 'shipping'>
  >();
  for (const product of products.values()) {
    productsForRules.set(product.id, product);
    for (const inner of product.innerProducts) productsForRules.set(inner.id, inner);
  }
  const clientErrors: Record<string, string> = {};
  if (caseMode === 'new') {
    const required = i18n.t('validation.required', { ns: 'errors' });
    if (!patient.fname.trim()) clientErrors[`${PATIENT_PATH}.fname`] = required;
    if (!patient.lname.trim()) clientErrors[`${PATIENT_PATH}.lname`] = required;
  } else if (target) {
    if (target.error) clientErrors.caseId = errorMessage(target.error);
    else if (!target.detail) clientErrors.caseId = t('shop:forCase.loading');
    else if (!isOrderable(target)) clientErrors.caseId = t('shop:forCase.notOrderable');
  } else if (caseId === null) {
    clientErrors.caseId = i18n.t('validation.required', { ns: 'errors' });
  }
  for (const problem of checkoutProblems(cart.items, cart.shipment, productsForRules)) {
    const message = i18n.t(`checkoutProblems.${problem.kind}`, { ns: 'domain' });
    if (problem.kind === 'shipment') {
      clientErrors.shipment = message;
      continue;
    }
    const index = cart.items.findIndex((item) => item.cartProductId === problem.cartProductId);
    const field = problem.kind === 'sleeveManufacturer' ? 'sleevesManufacture' : 'sleevesQtd';
    clientErrors[`items.${index}.manufactureData.${field}`] = message;
  }
  const quoteProblems: Record<string, string> = Object.fromEntries(
    Object.entries(quote.data?.problems ?? {}).map(([path, key]) => [path, problemMessage(key)]),
  );
  const submitFields = submitError instanceof ApiError ? submitError.fields : {};
  const showChecks = attempted[step] || attempted.payment;
  const fieldError = (...paths: string[]) =>
    lookup(submitFields, paths) ??
    (showChecks ? (lookup(clientErrors, paths) ?? lookup(quoteProblems, paths)) : undefined);

  const cartStepBlocked = Object.keys(clientErrors).some((path) => path !== 'shipment');
  const goNext = () => {
    setAttempted((current) => ({ ...current, [step]: true }));
    if (step === 'cart' && cartStepBlocked) return;
    if (step === 'address' && !isShipmentComplete(cart.shipment)) return;
    setStep(steps[active + 1] ?? step);
  };

  const submit = () => {
    setAttempted((current) => ({ ...current, payment: true }));
    if (!chosenMethod || placeOrder.isPending) return;
    if (cartStepBlocked) {
      setStep('cart');
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
          orderFor.setCaseId(null);
          onPlaced(result);
          dispatch({ type: 'clear' });
        },
        onError: (error) => setSubmitError(error),
      },
    );
  };

  // What blocks the order, on the payment step: the server's refusal, else the quote's problems.
  let problems: { title: string; messages: string[] } | null = null;
  if (submitError) {
    problems = {
      title: errorMessage(submitError),
      messages: Object.values(submitFields),
    };
  } else if (Object.keys(quoteProblems).length > 0 && !quote.isPlaceholderData) {
    problems = {
      title: t('shop:payment.problems'),
      messages: [...new Set(Object.values(quoteProblems))],
    };
  }

  const [summaryToggle, setSummaryToggle] = useState<boolean | null>(null);
  const summaryOpen = summaryToggle ?? step === 'payment';
  const summary = (
    <CheckoutSummary
      breakdown={quote.data?.breakdown}
      loading={quote.isLoading}
      updating={quote.isFetching || requestKey !== debouncedKey}
      error={quote.error}
      onRetry={() => void quote.refetch()}
      ships={ships}
      shippingChosen={cart.shipment.shipmentOption !== null}
    />
  );

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
        onCaseModeChange={setCaseMode}
        caseId={caseId}
        onCaseIdChange={setCaseId}
        orderTarget={target}
        onLeaveOrderTarget={() => orderFor.setCaseId(null)}
        cases={cases}
        casesLoading={caseList.isLoading}
        patient={patient}
        onPatientChange={setPatient}
        coupon={coupon}
        onCouponChange={setCoupon}
        couponFeedback={couponFeedback}
        registrationCoupon={
          typedCoupon === null && profile?.registrationCoupon ? profile.registrationCoupon : null
        }
        onCaseCurrencyChange={setNewCaseCurrency}
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
        error={attempted.payment && !chosenMethod ? t('shop:payment.chooseMethod') : undefined}
        problems={problems}
        unavailable={
          quote.data?.paymentMethodsUnavailable && !quote.isPlaceholderData ? (
            <NoPaymentMethod
              unavailable={quote.data.paymentMethodsUnavailable}
              onChangeCurrency={switchCurrency}
              changing={changeCaseCurrency.isPending}
            />
          ) : undefined
        }
      />
    );

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('shop:checkout.title')}
      </Title>
      <Stepper
        active={active}
        onStepClick={(index) => {
          if (index < active) setStep(steps[index] ?? 'cart');
        }}
        allowNextStepsSelect={false}
        size="sm"
      >
        {steps.map((name) => (
          <Stepper.Step key={name} label={t(`checkoutSteps.${name}`, { ns: 'domain' })} />
        ))}
      </Stepper>
      <Grid gap="md">
        {!wide && (
          <Grid.Col span={12}>
            <Card withBorder radius="md" padding="sm">
              <UnstyledButton
                onClick={() => setSummaryToggle(!summaryOpen)}
                aria-expanded={summaryOpen}
                aria-controls="checkout-summary"
                w="100%"
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600}>
                    {summaryOpen ? t('shop:summary.hide') : t('shop:summary.show')}
                  </Text>
                  <Group gap={6} wrap="nowrap">
                    {quote.data && (
                      <Text fw={700}>
                        {formatMoney(quote.data.breakdown.total, quote.data.breakdown.currency)}
                      </Text>
                    )}
                    {summaryOpen ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                  </Group>
                </Group>
              </UnstyledButton>
              <Collapse expanded={summaryOpen} id="checkout-summary">
                <Stack pt="sm">{summary}</Stack>
              </Collapse>
            </Card>
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            {stepContent}
            <Group justify="space-between">
              {active > 0 ? (
                <Button variant="default" onClick={() => setStep(steps[active - 1] ?? 'cart')}>
                  {t('shop:checkout.back')}
                </Button>
              ) : (
                <Button component={Link} to="/shop" variant="subtle">
                  {t('shop:checkout.continueShopping')}
                </Button>
              )}
              {step === 'payment' ? (
                <Button
                  onClick={submit}
                  loading={placeOrder.isPending}
                  disabled={placeOrder.isPending || !chosenMethod}
                >
                  {t('shop:checkout.placeOrder')}
                </Button>
              ) : (
                <Button onClick={goNext}>{t('shop:checkout.next')}</Button>
              )}
            </Group>
          </Stack>
        </Grid.Col>
        {wide && (
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card withBorder radius="md" padding="md" pos="sticky" top={90} id="checkout-summary">
              {summary}
            </Card>
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}
