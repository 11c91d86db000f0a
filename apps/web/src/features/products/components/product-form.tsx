import { useState } from 'react';
import {
  Button,
  Divider,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  isCombo,
  KINDS_OF_MANUFACTURE,
  LANGUAGES,
  parseMoney,
  PRODUCT_KINDS,
  PRODUCT_TYPES,
  productFormSchema,
  productName,
  QTD_OPTIONS,
  type AdminProduct,
  type Category,
  type Language,
  type ProductForm as ProductFormBody,
} from '@dentflow/domain';
import { currentLanguage, translateErrorKey } from '../../../lib/i18n';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useTabStrip } from '../../../lib/ui/tab-strip';
import { isCodeTaken, useSetProduct } from '../api/set-product';
import { ProductImageField } from './product-image-field';
import {
  currencySymbol,
  emptyNumberPaths,
  emptyProductValues,
  isComboValues,
  PRODUCT_FLAGS,
  productBody,
  moneyInputText,
  productValues,
  textCurrency,
  type ImageChange,
  type ProductFormValues,
} from './product-form-values';

const validateBody = schemaValidator<unknown>(productFormSchema);

/** Every field of the product: checked with the domain's `productFormSchema` before sending. */
function validateProduct(values: ProductFormValues): FormErrors {
  const errors = validateBody(productBody(values, { kind: 'keep' }));
  const required = translateErrorKey('validation.required');
  for (const path of emptyNumberPaths(values)) errors[path] = required;
  // The schema's cross-field rules (published needs a name, a combo needs parts) run only once
  // every field is valid; the same rules are named here so all errors show at once.
  for (const language of LANGUAGES) {
    const text = values.texts[language];
    if (text.publish && !text.name.trim()) errors[`texts.${language}.name`] ??= required;
  }
  if (isComboValues(values) && values.innerProducts.length === 0) {
    errors.innerProducts ??= required;
  }
  return errors;
}

const languageOfPath = (path: string): Language | undefined =>
  LANGUAGES.find((language) => path.startsWith(`texts.${language}.`));

/**
 * Product form (create and edit): general data, options, the image, and one tab per
 * language with name, description, price in that language's currency, combo discount and
 * publish. Field errors come from the domain schema, then from the server.
 */
export function ProductForm(props: {
  product: AdminProduct | null;
  products: AdminProduct[];
  categories: Category[];
  onSaved: (product: AdminProduct) => void;
  onCancel: () => void;
}) {
  const { product, products, categories, onSaved, onCancel } = props;
  const { t } = useTranslation();
  const language = currentLanguage();
  const setProduct = useSetProduct();
  const [image, setImage] = useState<ImageChange>({ kind: 'keep' });
  const [uploading, setUploading] = useState(false);
  const [tab, setTab] = useState<Language>(language);
  const tabStrip = useTabStrip(tab);
  const form = useForm<ProductFormValues>({
    initialValues: product ? productValues(product) : emptyProductValues(),
    validate: validateProduct,
  });
  const values = form.values;
  const combo = isComboValues(values);

  const tabsWithErrors = (errors: FormErrors) =>
    LANGUAGES.filter((lang) => Object.keys(errors).some((path) => languageOfPath(path) === lang));

  /** Errors in a hidden language tab: show that tab (the general fields are always visible). */
  const revealErrors = (errors: FormErrors) => {
    const withErrors = tabsWithErrors(errors);
    if (withErrors.length > 0 && !withErrors.includes(tab)) setTab(withErrors[0]!);
  };

  const submit = form.onSubmit(
    (formValues) => {
      const body: ProductFormBody = productFormSchema.parse(productBody(formValues, image));
      setProduct.mutate(
        { id: product?.id ?? 0, body },
        {
          onSuccess: (saved) => {
            showSuccess(t('admin:products.form.saved'));
            onSaved(saved);
          },
          onError: (error) => {
            const errors: FormErrors = serverFieldErrors(error);
            if (isCodeTaken(error)) errors.code = error.message;
            form.setErrors(errors);
            revealErrors(errors);
            showError(error);
          },
        },
      );
    },
    (errors) => {
      revealErrors(errors);
      showError(new Error(t('admin:products.form.fixErrors')));
    },
  );

  // Combos are made of single products; a product cannot contain itself.
  const innerOptions = products
    .filter(
      (candidate) =>
        !isCombo(candidate) &&
        candidate.id !== product?.id &&
        (!candidate.deletedAt || values.innerProducts.includes(String(candidate.id))),
    )
    .map((candidate) => ({
      value: String(candidate.id),
      label: `${candidate.code} · ${productName(candidate, language) || t('admin:products.unnamed')}`,
    }));

  const categoryOptions = [
    { value: '', label: t('admin:products.form.chooseCategory'), disabled: true },
    ...categories.map((category) => ({
      value: String(category.id),
      label: category.active
        ? category.name[language]
        : t('admin:products.form.inactiveCategory', { name: category.name[language] }),
    })),
  ];

  const errorTabs = tabsWithErrors(form.errors);

  /** The price as typed; on leaving the field a readable amount is shown in the currency's format. */
  const priceInputProps = (lang: Language) => {
    const path = `texts.${lang}.price`;
    const inputProps = form.getInputProps(path);
    return {
      ...inputProps,
      onBlur: (event: React.FocusEvent<HTMLInputElement>) => {
        const currency = textCurrency(lang);
        const amount = parseMoney(values.texts[lang].price, currency);
        if (amount !== null) form.setFieldValue(path, moneyInputText(amount, currency));
        inputProps.onBlur?.(event);
      },
    };
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={
        product
          ? t('admin:products.form.editTitle', { code: product.code })
          : t('admin:products.form.createTitle')
      }
    >
      <Stack gap="md">
        <ProductImageField
          currentUrl={product?.imageUrl ?? null}
          change={image}
          onChange={setImage}
          onUploadingChange={setUploading}
        />

        <Title order={3} size="h5">
          {t('admin:products.form.general')}
        </Title>
        <Radio.Group
          label={t('admin:products.form.productType')}
          {...form.getInputProps('productType')}
        >
          <Group gap="lg" mt={6}>
            <Radio
              value={String(PRODUCT_TYPES.single)}
              label={t('productTypes.single', { ns: 'domain' })}
            />
            <Radio
              value={String(PRODUCT_TYPES.combo)}
              label={t('productTypes.combo', { ns: 'domain' })}
            />
          </Group>
        </Radio.Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('admin:products.form.code')}
            description={t('admin:products.form.codeHint')}
            required
            maxLength={40}
            autoComplete="off"
            {...form.getInputProps('code')}
          />
          <NativeSelect
            label={t('admin:products.form.category')}
            required
            data={categoryOptions}
            {...form.getInputProps('productCategory')}
          />
        </SimpleGrid>
        {combo && (
          <MultiSelect
            label={t('admin:products.form.innerProducts')}
            description={t('admin:products.form.innerProductsHint')}
            required
            searchable
            data={innerOptions}
            maxValues={10}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('innerProducts')}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('admin:products.form.productKind')}
            data={[
              {
                value: String(PRODUCT_KINDS.planning),
                label: t('productKinds.planning', { ns: 'domain' }),
              },
              {
                value: String(PRODUCT_KINDS.manufacturing),
                label: t('productKinds.manufacturing', { ns: 'domain' }),
              },
            ]}
            {...form.getInputProps('productKind')}
          />
          <NativeSelect
            label={t('admin:products.form.kindOfManufacture')}
            data={[
              { value: '', label: t('admin:products.form.kindOfManufactureNone') },
              ...Object.entries(KINDS_OF_MANUFACTURE).map(([key, id]) => ({
                value: String(id),
                label: t(`kindsOfManufacture.${key}`, { ns: 'domain' }),
              })),
            ]}
            {...form.getInputProps('kindOfManufacture')}
          />
          <NativeSelect
            label={t('admin:products.form.qtdOption')}
            data={Object.entries(QTD_OPTIONS).map(([key, id]) => ({
              value: String(id),
              label: t(`qtdOptions.${key}`, { ns: 'domain' }),
            }))}
            {...form.getInputProps('qtdOption')}
          />
          <NumberInput
            label={t('admin:products.form.qtdMax')}
            min={1}
            max={32}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('qtdMax')}
          />
          <NumberInput
            label={t('admin:products.form.manufactureTime')}
            min={0}
            max={365}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('manufactureTime')}
          />
        </SimpleGrid>

        <Divider />
        <Title order={3} size="h5">
          {t('admin:products.form.options')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {PRODUCT_FLAGS.map((flag) => (
            <Switch
              key={flag}
              label={t(`admin:products.form.${flag}`)}
              {...form.getInputProps(flag, { type: 'checkbox' })}
            />
          ))}
        </SimpleGrid>

        <Divider />
        <Title order={3} size="h5">
          {t('admin:products.form.texts')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin:products.form.textsHint')}
        </Text>
        {/* Only the active language's inputs are in the page, so each label names one field. */}
        <Tabs value={tab} onChange={(next) => next && setTab(next as Language)} keepMounted={false}>
          <Tabs.List {...tabStrip}>
            {LANGUAGES.map((lang) => (
              <Tabs.Tab
                key={lang}
                value={lang}
                color={errorTabs.includes(lang) ? 'red' : undefined}
                c={errorTabs.includes(lang) ? 'red' : undefined}
              >
                {t(`languages.${lang}`, { ns: 'domain' })}
                {errorTabs.includes(lang) && (
                  <>
                    <span aria-hidden> •</span>
                    <VisuallyHidden> ({t('admin:products.form.tabHasErrors')})</VisuallyHidden>
                  </>
                )}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LANGUAGES.map((lang) => {
            const currency = textCurrency(lang);
            return (
              <Tabs.Panel key={lang} value={lang} pt="md">
                <Stack gap="sm">
                  <Switch
                    label={t('admin:products.form.publish')}
                    {...form.getInputProps(`texts.${lang}.publish`, { type: 'checkbox' })}
                  />
                  <TextInput
                    label={t('admin:products.form.name')}
                    maxLength={120}
                    {...form.getInputProps(`texts.${lang}.name`)}
                  />
                  <Textarea
                    label={t('admin:products.form.description')}
                    autosize
                    minRows={3}
                    maxRows={10}
                    maxLength={5000}
                    {...form.getInputProps(`texts.${lang}.description`)}
                  />
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <TextInput
                      label={t('admin:products.form.price', { currency })}
                      description={t('admin:products.form.priceHint', {
                        example: formatMoney(123456, currency),
                      })}
                      inputMode="decimal"
                      autoComplete="off"
                      leftSection={
                        <Text size="sm" c="dimmed" aria-hidden>
                          {currencySymbol(currency)}
                        </Text>
                      }
                      {...priceInputProps(lang)}
                    />
                    <NumberInput
                      label={t('admin:products.form.discount')}
                      description={t('admin:products.form.discountHint')}
                      min={0}
                      max={100}
                      allowDecimal={false}
                      allowNegative={false}
                      disabled={!combo}
                      {...form.getInputProps(`texts.${lang}.discount`)}
                    />
                  </SimpleGrid>
                </Stack>
              </Tabs.Panel>
            );
          })}
        </Tabs>

        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onCancel} disabled={setProduct.isPending}>
            {t('admin:products.form.cancel')}
          </Button>
          <Button type="submit" loading={setProduct.isPending} disabled={uploading}>
            {t('admin:products.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
