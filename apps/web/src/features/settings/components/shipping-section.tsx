import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  parseMoney,
  SHIPPING_OPTION_IDS,
  SHIPPING_OPTIONS,
  shippingSettingsFormSchema,
  type Currency,
  type ShippingOptionId,
  type ShippingOptionKey,
  type ShippingSettings,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useSaveSettings, useSettings } from '../api/settings-sections';
import { MoneyField, moneyExample, moneyInputText } from './money-field';
import { QueryContent, SectionHeader } from './section-frame';

const OPTION_KEYS = Object.fromEntries(
  Object.entries(SHIPPING_OPTIONS).map(([key, id]) => [id, key]),
) as Record<ShippingOptionId, ShippingOptionKey>;

interface ShippingOptionValues {
  shipmentType: ShippingOptionId;
  fees: Record<Currency, string>;
  days: number | string;
  active: boolean;
}
interface ShippingFormValues {
  options: ShippingOptionValues[];
  motoboyZipRanges: { from: string; to: string }[];
}

/** Every option appears, in id order; one the table does not hold yet starts free and off. */
function formValues(settings: ShippingSettings): ShippingFormValues {
  return {
    options: SHIPPING_OPTION_IDS.map((shipmentType) => {
      const stored = settings.options.find((option) => option.shipmentType === shipmentType);
      return {
        shipmentType,
        fees: {
          BRL: moneyInputText(stored?.fees.BRL ?? 0, 'BRL'),
          USD: moneyInputText(stored?.fees.USD ?? 0, 'USD'),
        },
        days: stored?.days ?? 0,
        active: stored?.active ?? false,
      };
    }),
    motoboyZipRanges: settings.motoboyZipRanges.map((range) => ({ ...range })),
  };
}

function documentOf(values: ShippingFormValues): ShippingSettings {
  return {
    options: values.options.map((option) => ({
      shipmentType: option.shipmentType,
      fees: {
        BRL: parseMoney(option.fees.BRL, 'BRL') ?? Number.NaN,
        USD: parseMoney(option.fees.USD, 'USD') ?? Number.NaN,
      },
      days: typeof option.days === 'number' ? option.days : Number.NaN,
      active: option.active,
    })),
    motoboyZipRanges: values.motoboyZipRanges,
  };
}

const validateDocument = schemaValidator<ShippingSettings>(shippingSettingsFormSchema);

function ShippingForm(props: { settings: ShippingSettings }) {
  const { t } = useTranslation();
  const save = useSaveSettings('shipping');
  const form = useForm<ShippingFormValues>({
    initialValues: formValues(props.settings),
    validate: (values) => {
      const errors: FormErrors = validateDocument(documentOf(values));
      values.options.forEach((option, index) => {
        for (const currency of CURRENCIES) {
          if (parseMoney(option.fees[currency], currency) === null) {
            errors[`options.${index}.fees.${currency}`] = t('admin:settings.common.invalidMoney', {
              example: moneyExample(currency),
            });
          }
        }
      });
      values.motoboyZipRanges.forEach((range, index) => {
        for (const end of ['from', 'to'] as const) {
          if (!/^\d{8}$/.test(range[end])) {
            errors[`motoboyZipRanges.${index}.${end}`] = t('admin:settings.shipping.zipInvalid');
          }
        }
        const bothValid = !errors[`motoboyZipRanges.${index}.from`] && /^\d{8}$/.test(range.to);
        if (bothValid && range.from > range.to) {
          errors[`motoboyZipRanges.${index}.to`] = t('admin:settings.shipping.rangeOrder');
        }
      });
      return errors;
    },
  });

  const submit = form.onSubmit(
    (values) =>
      save.mutate(shippingSettingsFormSchema.parse(documentOf(values)), {
        onSuccess: (saved) => {
          form.setValues(formValues(saved));
          showSuccess(t('admin:settings.shipping.saved'));
        },
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      }),
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  const zipInputProps = (index: number, end: 'from' | 'to') => {
    const path = `motoboyZipRanges.${index}.${end}`;
    return {
      ...form.getInputProps(path),
      // Typed with or without the dash: only the digits are kept.
      onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
        form.setFieldValue(path, event.currentTarget.value.replace(/\D/g, '').slice(0, 8)),
    };
  };

  return (
    <form onSubmit={submit} noValidate data-testid="shipping-settings-form">
      <Stack gap="lg">
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" aria-label={t('admin:settings.shipping.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin:settings.shipping.columns.option')}</Table.Th>
                {CURRENCIES.map((currency) => (
                  <Table.Th key={currency}>
                    {t(`admin:settings.shipping.columns.${currency}`)}
                  </Table.Th>
                ))}
                <Table.Th>{t('admin:settings.shipping.columns.days')}</Table.Th>
                <Table.Th>{t('admin:settings.shipping.columns.active')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {form.values.options.map((option, index) => {
                const name = t(`domain:shippingOptions.${OPTION_KEYS[option.shipmentType]}`);
                const free = option.shipmentType === SHIPPING_OPTIONS.localWithdraw;
                return (
                  <Table.Tr
                    key={option.shipmentType}
                    data-testid={`shipping-option-${option.shipmentType}`}
                  >
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {name}
                      </Text>
                    </Table.Td>
                    {CURRENCIES.map((currency) => (
                      <Table.Td key={currency} miw={150}>
                        {free ? (
                          <Text size="sm" c="dimmed">
                            {t('admin:settings.shipping.alwaysFree')}
                          </Text>
                        ) : (
                          <MoneyField
                            label={t('admin:settings.shipping.feeLabel', {
                              option: name,
                              currency,
                            })}
                            labelHidden
                            currency={currency}
                            inputProps={form.getInputProps(`options.${index}.fees.${currency}`)}
                            onFormat={(text) =>
                              form.setFieldValue(`options.${index}.fees.${currency}`, text)
                            }
                            data-testid={`shipping-fee-${option.shipmentType}-${currency}`}
                          />
                        )}
                      </Table.Td>
                    ))}
                    <Table.Td miw={100}>
                      <NumberInput
                        aria-label={t('admin:settings.shipping.daysLabel', { option: name })}
                        min={0}
                        max={90}
                        allowDecimal={false}
                        allowNegative={false}
                        data-testid={`shipping-days-${option.shipmentType}`}
                        {...form.getInputProps(`options.${index}.days`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Switch
                        aria-label={t('admin:settings.shipping.activeLabel', { option: name })}
                        {...form.getInputProps(`options.${index}.active`, { type: 'checkbox' })}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        <Card withBorder radius="md">
          <Stack gap="sm">
            <Title order={3} size="h5">
              {t('admin:settings.shipping.zipTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('admin:settings.shipping.zipDescription')}
            </Text>
            {form.values.motoboyZipRanges.length === 0 && (
              <Text size="sm">{t('admin:settings.shipping.noRanges')}</Text>
            )}
            {form.values.motoboyZipRanges.map((_range, index) => (
              <Group key={index} align="flex-start" gap="sm" wrap="wrap">
                <TextInput
                  label={t('admin:settings.shipping.zipFromLabel', { index: index + 1 })}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={8}
                  w={150}
                  data-testid={`shipping-zip-from-${index}`}
                  {...zipInputProps(index, 'from')}
                />
                <TextInput
                  label={t('admin:settings.shipping.zipToLabel', { index: index + 1 })}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={8}
                  w={150}
                  data-testid={`shipping-zip-to-${index}`}
                  {...zipInputProps(index, 'to')}
                />
                <Tooltip label={t('admin:settings.shipping.removeRange', { index: index + 1 })}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={28}
                    aria-label={t('admin:settings.shipping.removeRange', { index: index + 1 })}
                    onClick={() => form.removeListItem('motoboyZipRanges', index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            <Group>
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => form.insertListItem('motoboyZipRanges', { from: '', to: '' })}
              >
                {t('admin:settings.shipping.addRange')}
              </Button>
            </Group>
          </Stack>
        </Card>

        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="shipping-settings-save">
            {t('admin:settings.shipping.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings › Shipment: the shop's shipping table and the motoboy's zip ranges. */
export function ShippingSection() {
  const { t } = useTranslation();
  const settings = useSettings('shipping');
  return (
    <Stack gap="md">
      <SectionHeader
        title={t('admin:settings.shipping.title')}
        description={t('admin:settings.shipping.description')}
      />
      <QueryContent query={settings}>
        {(shipping) => <ShippingForm settings={shipping} />}
      </QueryContent>
    </Stack>
  );
}
