import {
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  useMatches,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { COUPON_TYPES, type AdminCoupon } from '@dentflow/domain';
import { serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useCategoryOptions, useProductOptions } from '../api/list-binding-options';
import { useSaveCoupon } from '../api/save-coupon';
import {
  couponFormValues,
  emptyCouponFormValues,
  toCouponForm,
  validateCouponForm,
  type CouponFormValues,
} from '../coupon-form-values';
import { COUPON_TYPE_KEYS } from './coupon-display';
import { DateField } from '../../../lib/ui/date-field';

/** The create/edit dialog: `coupon` null creates. Full screen on a phone. */
export function CouponFormModal(props: {
  opened: boolean;
  coupon: AdminCoupon | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useMatches({ base: true, sm: false });
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.coupon ? t('admin:coupons.form.editTitle') : t('admin:coupons.form.newTitle')}
      size="lg"
      fullScreen={phone}
    >
      {/* Keyed, so each opening starts from the coupon's stored values. */}
      {props.opened && (
        <CouponForm key={props.coupon?.id ?? 0} coupon={props.coupon} onDone={props.onClose} />
      )}
    </Modal>
  );
}

export function CouponForm({ coupon, onDone }: { coupon: AdminCoupon | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCoupon();
  const products = useProductOptions();
  const categories = useCategoryOptions();
  const form = useForm<CouponFormValues>({
    initialValues: coupon ? couponFormValues(coupon) : emptyCouponFormValues(),
    validate: validateCouponForm,
  });
  const type = Number(form.values.coupomType);

  const submit = form.onSubmit((values) =>
    save.mutate(
      { id: coupon?.id ?? 0, body: toCouponForm(values) },
      {
        onSuccess: (saved) => {
          showSuccess(t('admin:coupons.form.saved', { code: saved.name }));
          onDone();
        },
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      },
    ),
  );

  const valueLabel =
    type === COUPON_TYPES.fixed
      ? t('admin:coupons.form.valueFixed')
      : type === COUPON_TYPES.unit
        ? t('admin:coupons.form.valueUnit')
        : t('admin:coupons.form.valuePercent');
  const valueHint =
    type === COUPON_TYPES.fixed
      ? t('admin:coupons.form.valueFixedHint')
      : type === COUPON_TYPES.unit
        ? t('admin:coupons.form.valueUnitHint')
        : t('admin:coupons.form.valuePercentHint');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('admin:coupons.form.code')}
            description={t('admin:coupons.form.codeHint')}
            required
            maxLength={60}
            autoCapitalize="characters"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Select
            label={t('admin:coupons.form.type')}
            required
            allowDeselect={false}
            data={Object.entries(COUPON_TYPE_KEYS).map(([id, key]) => ({
              value: id,
              label: t(`couponTypes.${key}`, { ns: 'domain' }),
            }))}
            {...form.getInputProps('coupomType')}
          />
          <TextInput
            label={valueLabel}
            description={valueHint}
            required
            inputMode={type === COUPON_TYPES.fixed ? 'decimal' : 'numeric'}
            leftSection={type === COUPON_TYPES.fixed ? <Text size="sm">R$</Text> : undefined}
            rightSection={type === COUPON_TYPES.percent ? <Text size="sm">%</Text> : undefined}
            {...form.getInputProps('value')}
          />
          <NumberInput
            label={t('admin:coupons.form.maxUsage')}
            description={t('admin:coupons.form.maxUsageHint')}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('maxUsage')}
          />
        </SimpleGrid>

        <Text fw={600} size="sm" mt="xs">
          {t('admin:coupons.form.bindings')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NumberInput
            label={t('admin:coupons.form.bind2User')}
            description={t('admin:coupons.form.bind2UserHint')}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('bind2User')}
          />
          <Select
            label={t('admin:coupons.form.bind2Product')}
            description={
              type === COUPON_TYPES.unit
                ? t('admin:coupons.form.bind2ProductRequired')
                : t('admin:coupons.form.bind2ProductHint')
            }
            required={type === COUPON_TYPES.unit}
            data={products.data ?? []}
            searchable
            clearable
            nothingFoundMessage={t('admin:coupons.form.nothingFound')}
            placeholder={products.isLoading ? t('admin:coupons.form.loadingOptions') : undefined}
            {...form.getInputProps('bind2Product')}
          />
          <Select
            label={t('admin:coupons.form.bind2Category')}
            description={t('admin:coupons.form.bind2CategoryHint')}
            data={categories.data ?? []}
            searchable
            clearable
            nothingFoundMessage={t('admin:coupons.form.nothingFound')}
            placeholder={categories.isLoading ? t('admin:coupons.form.loadingOptions') : undefined}
            {...form.getInputProps('bind2Category')}
          />
        </SimpleGrid>

        <DateField
          label={t('admin:coupons.form.expireAt')}
          description={t('admin:coupons.form.expireAtHint')}
          {...form.getInputProps('expireAt')}
        />
        <Stack gap="xs" mt="xs">
          <Switch
            label={t('admin:coupons.form.oncePerUser')}
            {...form.getInputProps('oncePerUser', { type: 'checkbox' })}
          />
          <Switch
            label={t('admin:coupons.form.applyOnManufactureService')}
            {...form.getInputProps('applyOnManufactureService', { type: 'checkbox' })}
          />
          <Switch
            label={t('admin:coupons.form.active')}
            {...form.getInputProps('active', { type: 'checkbox' })}
          />
        </Stack>

        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            {t('admin:coupons.form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('admin:coupons.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
