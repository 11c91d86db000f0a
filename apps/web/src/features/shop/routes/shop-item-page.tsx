import { Link, useParams } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  EmptyState,
  Grid,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconMoodEmpty, IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, isCombo, shopProductPrice } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/notify';
import { useShopProduct } from '../api/get-shop-product';
import { useCategories } from '../../products/api/list-categories';
import { useShopScope } from '../api/shop-scope';
import { CartToggleButton } from '../components/cart-toggle-button';
import { PriceTag } from '../components/price-tag';
import { ProductImage } from '../components/product-image';
import { productKindLabel, qtdOptionLabel } from '../components/labels';

function BackToShop() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/shop" size="sm">
      <Group gap={4} component="span" wrap="nowrap">
        <IconArrowLeft size={16} />
        {t('shop:item.back')}
      </Group>
    </Anchor>
  );
}

/** /shop/item/:item_id — a product's detail (from the product cache). */
export function ShopItemPage() {
  const { t } = useTranslation();
  const { item_id: itemId } = useParams();
  const id = /^\d+$/.test(itemId ?? '') ? Number(itemId) : NaN;
  const product = useShopProduct(id);
  const categories = useCategories();
  const { language } = useShopScope();

  const notFound =
    Number.isNaN(id) ||
    (product.error instanceof ApiError &&
      (product.error.status === 404 || product.error.code === 'NOT_FOUND'));

  if (notFound) {
    return (
      <Stack gap="md">
        <BackToShop />
        <EmptyState
          icon={<IconMoodEmpty size={28} />}
          title={t('shop:item.notFoundTitle')}
          description={t('shop:item.notFoundBody')}
          py="xl"
        />
      </Stack>
    );
  }
  if (product.isError) {
    return (
      <Stack gap="md">
        <BackToShop />
        <Alert color="red" title={t('feedback.error')}>
          <Text size="sm">{errorMessage(product.error)}</Text>
          <Button
            size="xs"
            mt="sm"
            variant="light"
            color="red"
            onClick={() => void product.refetch()}
          >
            {t('shop:list.retry')}
          </Button>
        </Alert>
      </Stack>
    );
  }
  const item = product.data;
  if (!item) {
    return (
      <Stack gap="md" aria-busy="true" aria-label={t('shop:item.loading')}>
        <BackToShop />
        <Grid>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Skeleton h={280} radius="md" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Skeleton h={32} w="60%" mb="md" />
            <Skeleton h={16} mb="xs" />
            <Skeleton h={16} w="80%" />
          </Grid.Col>
        </Grid>
      </Stack>
    );
  }

  const category =
    item.categoryName ||
    categories.data?.find((c) => c.id === item.productCategoryId)?.name[language] ||
    '';
  const combo = isCombo(item);

  return (
    <Stack gap="md">
      <BackToShop />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <ProductImage url={item.imageUrl} name={item.name} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
                {item.name}
              </Title>
              {item.favorite && (
                <IconStarFilled
                  size={22}
                  color="var(--mantine-color-yellow-6)"
                  role="img"
                  aria-label={t('shop:card.favorite')}
                  style={{ flexShrink: 0, marginTop: 6 }}
                />
              )}
            </Group>
            <Group gap="xs">
              {category && <Badge variant="light">{category}</Badge>}
              <Badge variant="outline" color="gray">
                {productKindLabel(item.productKind)}
              </Badge>
            </Group>
            <PriceTag
              price={shopProductPrice(item)}
              currency={item.currency}
              size="xl"
              testId="shop-item-price"
            />
            {item.description && (
              <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                {item.description}
              </Text>
            )}
            <Table variant="vertical" layout="fixed" withTableBorder>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={180}>{t('shop:item.quantityOption')}</Table.Th>
                  <Table.Td>{qtdOptionLabel(item.qtdOption)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('shop:item.manufactureTime')}</Table.Th>
                  <Table.Td>{t('shop:item.days', { n: item.manufactureTime })}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {combo && item.innerProducts.length > 0 && (
              <Stack gap={4}>
                <Title order={2} size="h4">
                  {t('shop:item.included')}
                </Title>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('shop:item.product')}</Table.Th>
                      <Table.Th ta="right">{t('shop:item.price')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {item.innerProducts.map((inner) => (
                      <Table.Tr key={inner.id}>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>
                          {inner.name}
                          <Text size="xs" c="dimmed">
                            {productKindLabel(inner.productKind)}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">{formatMoney(inner.price, item.currency)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Stack>
            )}
            <Group>
              <CartToggleButton product={item} />
            </Group>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
