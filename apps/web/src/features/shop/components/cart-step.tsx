import {
  ActionIcon,
  Card,
  Group,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  personDisplayName,
  serviceQuantityRange,
  type CartAction,
  type CartItem,
  type CasePreview,
  type Currency,
  type ShopProduct,
  type SleeveOffer,
} from '@dentflow/domain';
import { CurrencyPicker } from '../../cases/components/currency-picker';
import { manufacturePart } from '../cart/cart-products';
import { qtdOptionLabel } from './labels';
import { OrderForCaseCard, type OrderTarget } from './order-for-case';

export type CaseMode = 'new' | 'existing';
export interface PatientName {
  fname: string;
  lname: string;
}
export type FieldError = (...paths: string[]) => string | undefined;

function CartItemCard({
  item,
  index,
  product,
  loading,
  sleeves,
  sleevesCurrency,
  dispatch,
  fieldError,
}: {
  item: CartItem;
  index: number;
  product: ShopProduct | undefined;
  loading: boolean;
  sleeves: readonly SleeveOffer[];
  sleevesCurrency: Currency;
  dispatch: (action: CartAction) => void;
  fieldError: FieldError;
}) {
  const { t } = useTranslation();
  const name = product?.name ?? t('shop:cart.productNumber', { id: item.cartProductId });
  const part = manufacturePart(item, product);
  const range = product ? serviceQuantityRange(product) : { min: 1, max: 1 };
  const sleeveData = item.manufactureData ?? { sleevesManufacture: null, sleevesQtd: 0 };
  const setSleeves = (sleevesManufacture: number | null, sleevesQtd: number) =>
    dispatch({
      type: 'setSleeves',
      cartProductId: item.cartProductId,
      sleevesManufacture,
      sleevesQtd,
    });
  const path = `items.${index}`;

  return (
    <Card withBorder radius="md" padding="sm" component="li">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          {loading && !product ? (
            <Skeleton h={18} w={180} />
          ) : (
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
          )}
          {product && (
            <Text size="sm" c="dimmed">
              {formatMoney(product.price, product.currency)} · {qtdOptionLabel(product.qtdOption)}
            </Text>
          )}
        </Stack>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('shop:cart.removeNamed', { name })}
          onClick={() => dispatch({ type: 'remove', cartProductId: item.cartProductId })}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} mt="sm" spacing="sm">
        <NumberInput
          label={t('shop:checkout.quantity')}
          aria-label={t('shop:checkout.quantityNamed', { name })}
          value={item.quantity}
          min={range.min}
          max={range.max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          disabled={!product || range.max <= range.min}
          error={fieldError(`${path}.quantity`)}
          onChange={(value) => {
            if (typeof value === 'number')
              dispatch({
                type: 'setQuantity',
                cartProductId: item.cartProductId,
                quantity: value,
                qtdMax: range.max,
              });
          }}
        />
        {part?.enableKit && (
          <Select
            label={t('shop:checkout.sleeveManufacturer')}
            aria-label={t('shop:checkout.sleeveManufacturerNamed', { name })}
            required
            placeholder={t('shop:checkout.choose')}
            data={sleeves.map((sleeve) => ({
              value: String(sleeve.id),
              label: `${sleeve.sleeve_manufacture} · ${formatMoney(sleeve.sleeve_price, sleevesCurrency)}`,
            }))}
            value={
              sleeveData.sleevesManufacture === null ? null : String(sleeveData.sleevesManufacture)
            }
            onChange={(value) => setSleeves(value ? Number(value) : null, sleeveData.sleevesQtd)}
            error={fieldError(`${path}.manufactureData.sleevesManufacture`)}
            allowDeselect={false}
          />
        )}
        {part?.enableSleeve && (
          <NumberInput
            label={t('shop:checkout.sleeveQuantity')}
            aria-label={t('shop:checkout.sleeveQuantityNamed', { name })}
            required
            value={sleeveData.sleevesQtd || ''}
            min={1}
            max={99}
            allowDecimal={false}
            allowNegative={false}
            error={fieldError(`${path}.manufactureData.sleevesQtd`)}
            onChange={(value) =>
              setSleeves(sleeveData.sleevesManufacture, typeof value === 'number' ? value : 0)
            }
          />
        )}
      </SimpleGrid>
    </Card>
  );
}

/** Step 1: the items with their options, the case (or patient) and the coupon. */
export function CartStep({
  items,
  products,
  productsLoading,
  sleeves,
  currency,
  dispatch,
  caseMode,
  onCaseModeChange,
  caseId,
  onCaseIdChange,
  orderTarget,
  onLeaveOrderTarget,
  cases,
  casesLoading,
  patient,
  onPatientChange,
  coupon,
  onCouponChange,
  couponFeedback,
  registrationCoupon,
  onCaseCurrencyChange,
  fieldError,
}: {
  items: readonly CartItem[];
  products: ReadonlyMap<number, ShopProduct>;
  productsLoading: boolean;
  sleeves: readonly SleeveOffer[];
  currency: Currency;
  dispatch: (action: CartAction) => void;
  caseMode: CaseMode;
  onCaseModeChange: (mode: CaseMode) => void;
  caseId: number | null;
  onCaseIdChange: (id: number | null) => void;
  /** The case this order is for (set from the case page); then no other case is chosen here. */
  orderTarget: OrderTarget | null;
  onLeaveOrderTarget: () => void;
  cases: readonly CasePreview[];
  casesLoading: boolean;
  patient: PatientName;
  onPatientChange: (patient: PatientName) => void;
  coupon: string;
  onCouponChange: (code: string) => void;
  couponFeedback: { applicable: boolean; message: string } | null;
  /** The coupon the user registered with, while it is what fills the field. */
  registrationCoupon: string | null;
  /** The new case's currency (an existing case keeps its own here). */
  onCaseCurrencyChange: (currency: Currency) => void;
  fieldError: FieldError;
}) {
  const { t } = useTranslation();
  const patientPath = 'items.0.planningExtraData.patient';
  return (
    <Stack gap="md">
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {items.map((item, index) => (
          <CartItemCard
            key={item.cartProductId}
            item={item}
            index={index}
            product={products.get(item.cartProductId)}
            loading={productsLoading}
            sleeves={sleeves}
            sleevesCurrency={currency}
            dispatch={dispatch}
            fieldError={fieldError}
          />
        ))}
      </Stack>

      {orderTarget ? (
        <OrderForCaseCard
          target={orderTarget}
          error={fieldError('caseId')}
          onLeave={onLeaveOrderTarget}
        />
      ) : (
        <Card withBorder radius="md" padding="sm">
          <Title order={2} size="h4" mb="xs">
            {t('shop:checkout.caseTitle')}
          </Title>
          <Radio.Group
            value={caseMode}
            onChange={(value) => onCaseModeChange(value === 'existing' ? 'existing' : 'new')}
            aria-label={t('shop:checkout.caseTitle')}
          >
            <Group gap="lg" mb="sm">
              <Radio value="new" label={t('shop:checkout.newCase')} />
              <Radio
                value="existing"
                label={t('shop:checkout.existingCase')}
                disabled={!casesLoading && cases.length === 0}
              />
            </Group>
          </Radio.Group>
          {caseMode === 'existing' ? (
            <Select
              label={t('shop:checkout.case')}
              required
              placeholder={
                casesLoading ? t('shop:checkout.loadingCases') : t('shop:checkout.choose')
              }
              searchable
              data={cases.map((item) => ({
                value: String(item.id),
                label: t('shop:checkout.caseOption', {
                  id: item.id,
                  patient: personDisplayName(item.patient),
                }),
              }))}
              value={caseId === null ? null : String(caseId)}
              onChange={(value) => onCaseIdChange(value ? Number(value) : null)}
              error={fieldError('caseId')}
              nothingFoundMessage={t('shop:checkout.noCases')}
            />
          ) : (
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('shop:checkout.patientFirstName')}
                  required
                  maxLength={60}
                  value={patient.fname}
                  onChange={(event) =>
                    onPatientChange({ ...patient, fname: event.currentTarget.value })
                  }
                  error={fieldError(`${patientPath}.fname`, 'patient.fname')}
                />
                <TextInput
                  label={t('shop:checkout.patientLastName')}
                  required
                  maxLength={60}
                  value={patient.lname}
                  onChange={(event) =>
                    onPatientChange({ ...patient, lname: event.currentTarget.value })
                  }
                  error={fieldError(`${patientPath}.lname`, 'patient.lname')}
                />
              </SimpleGrid>
              <CurrencyPicker
                value={currency}
                onChange={onCaseCurrencyChange}
                description={t('cases:currency.hint')}
              />
            </Stack>
          )}
          {caseMode === 'existing' && caseId !== null && (
            <Text size="sm" c="dimmed" mt="xs">
              {t('shop:checkout.caseCurrency', { currency: t(`domain:currencies.${currency}`) })}
            </Text>
          )}
        </Card>
      )}

      <Card withBorder radius="md" padding="sm">
        <TextInput
          label={t('shop:checkout.coupon')}
          description={
            registrationCoupon
              ? t('shop:checkout.registrationCoupon', { code: registrationCoupon })
              : t('shop:checkout.couponHint')
          }
          maxLength={60}
          value={coupon}
          onChange={(event) => onCouponChange(event.currentTarget.value)}
          error={
            fieldError('coupon') ??
            (couponFeedback && !couponFeedback.applicable ? couponFeedback.message : undefined)
          }
          autoComplete="off"
        />
        {couponFeedback?.applicable && (
          <Text size="sm" c="green.8" mt={4} role="status">
            {couponFeedback.message}
          </Text>
        )}
      </Card>
    </Stack>
  );
}
