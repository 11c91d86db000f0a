import {
  Alert,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  PAYMENT_METHODS,
  PIX_KEY_MAX,
  PIX_MERCHANT_CITY_MAX,
  PIX_MERCHANT_NAME_MAX,
  paymentsSettingsSchema,
  type PaymentsSettings,
  type PaymentsSettingsView,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useSaveSettings, useSettings } from '../api/settings-sections';
import { QueryContent, SectionHeader } from './section-frame';

/** The editable document out of the GET answer (which also says what is configured). */
const documentOf = (view: PaymentsSettingsView): PaymentsSettings => ({
  pixKey: view.pixKey,
  pixMerchantName: view.pixMerchantName,
  pixMerchantCity: view.pixMerchantCity,
  enabled: { ...view.enabled },
});

function PaymentsForm(props: { view: PaymentsSettingsView }) {
  const { view } = props;
  const { t } = useTranslation();
  const save = useSaveSettings('payments');
  const form = useForm<PaymentsSettings>({
    initialValues: documentOf(view),
    validate: schemaValidator(paymentsSettingsSchema),
  });

  const submit = form.onSubmit(
    (values) =>
      save.mutate(paymentsSettingsSchema.parse(values), {
        onSuccess: (saved) => {
          form.setValues(documentOf(saved));
          form.resetDirty(documentOf(saved));
          showSuccess(t('admin:settings.payments.saved'));
        },
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      }),
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  const answer = (configured: boolean) =>
    t(configured ? 'admin:settings.common.yes' : 'admin:settings.common.no');

  const unpayable = view.currenciesWithoutOnlineMethod
    .map((currency) => t(`domain:currencies.${currency}`))
    .join(', ');

  return (
    <form onSubmit={submit} noValidate data-testid="payments-settings-form">
      <Stack gap="lg">
        {unpayable && (
          <Alert
            color="orange"
            icon={<IconAlertTriangle size={18} />}
            title={t('admin:settings.payments.noOnlineMethodTitle', { currencies: unpayable })}
            data-testid="payments-no-online-method"
          >
            {t('admin:settings.payments.noOnlineMethod', { currencies: unpayable })}
          </Alert>
        )}
        <Card withBorder radius="md">
          <Stack gap="sm">
            <Title order={3} size="h5">
              {t('admin:settings.payments.pixTitle')}
            </Title>
            <TextInput
              label={t('admin:settings.payments.pixKey')}
              description={t('admin:settings.payments.pixKeyHint', { max: PIX_KEY_MAX })}
              maxLength={PIX_KEY_MAX}
              autoComplete="off"
              {...form.getInputProps('pixKey')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('admin:settings.payments.pixMerchantName')}
                description={t('admin:settings.payments.pixMerchantNameHint', {
                  max: PIX_MERCHANT_NAME_MAX,
                })}
                maxLength={PIX_MERCHANT_NAME_MAX}
                autoComplete="off"
                {...form.getInputProps('pixMerchantName')}
              />
              <TextInput
                label={t('admin:settings.payments.pixMerchantCity')}
                description={t('admin:settings.payments.pixMerchantCityHint', {
                  max: PIX_MERCHANT_CITY_MAX,
                })}
                maxLength={PIX_MERCHANT_CITY_MAX}
                autoComplete="off"
                {...form.getInputProps('pixMerchantCity')}
              />
            </SimpleGrid>
          </Stack>
        </Card>

        <Card withBorder radius="md">
          <Stack gap="sm">
            <Title order={3} size="h5">
              {t('admin:settings.payments.methodsTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('admin:settings.payments.methodsHint')}
            </Text>
            {PAYMENT_METHODS.map((method) => (
              <Switch
                key={method}
                label={t(`domain:paymentMethods.${method}`)}
                {...form.getInputProps(`enabled.${method}`, { type: 'checkbox' })}
              />
            ))}
          </Stack>
        </Card>

        <Card withBorder radius="md">
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('admin:settings.payments.providersTitle')}
            </Title>
            <List listStyleType="none" spacing={4}>
              {(
                [
                  ['paypalConfigured', view.paypalConfigured],
                  ['pagbankConfigured', view.pagbankConfigured],
                ] as const
              ).map(([key, configured]) => (
                <List.Item key={key} data-testid={`payments-${key}`}>
                  <Group gap="xs" wrap="nowrap">
                    {configured ? (
                      <IconCircleCheck size={18} color="var(--mantine-color-green-6)" aria-hidden />
                    ) : (
                      <IconCircleX size={18} color="var(--mantine-color-gray-6)" aria-hidden />
                    )}
                    <Text size="sm">
                      {t(`admin:settings.payments.${key}`, { answer: answer(configured) })}
                    </Text>
                  </Group>
                </List.Item>
              ))}
            </List>
            <Text size="xs" c="dimmed">
              {t('admin:settings.payments.providersHint')}
            </Text>
          </Stack>
        </Card>

        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="payments-settings-save">
            {t('admin:settings.payments.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings › Payments: the Pix receiver, which methods are on, whether card providers are set. */
export function PaymentsSection() {
  const { t } = useTranslation();
  const settings = useSettings('payments');
  return (
    <Stack gap="md">
      <SectionHeader
        title={t('admin:settings.payments.title')}
        description={t('admin:settings.payments.description')}
      />
      <QueryContent query={settings}>{(view) => <PaymentsForm view={view} />}</QueryContent>
    </Stack>
  );
}
