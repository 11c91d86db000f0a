import {
  Badge,
  Card,
  Checkbox,
  Group,
  NumberInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  QTD_OPTIONS,
  formatMoney,
  linePrice,
  serviceQuantityRange,
  type CatalogueProduct,
  type Currency,
} from '@dentflow/domain';

const QTD_LABEL: Record<number, string> = {
  [QTD_OPTIONS.perCase]: 'perCase',
  [QTD_OPTIONS.perArch]: 'perArch',
  [QTD_OPTIONS.perElement]: 'perElement',
};

/** productId → quantity of the chosen products. */
export type ProductSelection = Record<number, number>;

/** The catalogue's products, localized, priced in the case currency, with a quantity each. */
export function ProductPicker(props: {
  products: CatalogueProduct[] | undefined;
  loading: boolean;
  currency: Currency;
  value: ProductSelection;
  onChange: (value: ProductSelection) => void;
  /** Products already on the case (not offered twice). */
  exclude?: number[];
}) {
  const { t } = useTranslation();
  if (props.loading) {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Skeleton h={120} />
        <Skeleton h={120} />
      </SimpleGrid>
    );
  }
  const products = (props.products ?? []).filter((p) => !props.exclude?.includes(p.id));
  if (products.length === 0) {
    return <Text c="dimmed">{t('cases:intake.noProducts')}</Text>;
  }
  const toggle = (product: CatalogueProduct, checked: boolean) => {
    const next = { ...props.value };
    if (checked) next[product.id] = serviceQuantityRange(product).min;
    else delete next[product.id];
    props.onChange(next);
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {products.map((product) => {
        const chosen = product.id in props.value;
        const quantity = props.value[product.id] ?? 1;
        const range = serviceQuantityRange(product);
        const unit = product.prices[props.currency] ?? 0;
        return (
          <Card
            key={product.id}
            withBorder
            padding="sm"
            radius="md"
            style={chosen ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
          >
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Checkbox
                  checked={chosen}
                  onChange={(event) => toggle(product, event.currentTarget.checked)}
                  label={<Text fw={600}>{product.name}</Text>}
                />
                <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(
                    linePrice(unit, product.qtdOption, chosen ? quantity : 1),
                    props.currency,
                  )}
                </Text>
              </Group>
              <Text size="sm" c="dimmed">
                {product.description}
              </Text>
              <Group gap="xs">
                <Badge variant="light" size="sm">
                  {product.categoryName}
                </Badge>
                <Badge variant="outline" size="sm" color="gray">
                  {t(`domain:qtdOptions.${QTD_LABEL[product.qtdOption] ?? 'perCase'}`)}
                </Badge>
              </Group>
              {chosen && range.max > 1 && (
                <NumberInput
                  label={t('cases:intake.quantity')}
                  value={quantity}
                  min={range.min}
                  max={range.max}
                  clampBehavior="strict"
                  allowDecimal={false}
                  w={140}
                  onChange={(value) =>
                    props.onChange({
                      ...props.value,
                      [product.id]: Math.min(range.max, Math.max(range.min, Number(value) || 1)),
                    })
                  }
                />
              )}
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
