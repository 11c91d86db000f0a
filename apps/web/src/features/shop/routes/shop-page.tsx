import { useEffect, useReducer, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, EmptyState, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuildingStore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import {
  EMPTY_SHOP_FILTER,
  SHOP_PAGE_SIZE,
  shopFilterReducer,
  type ShopFilterAction,
} from '@dentflow/domain';
import { errorMessage } from '../../../lib/notify';
import { useCategories } from '../../products/api/list-categories';
import { useShopProductList } from '../api/list-shop-products';
import { useShopScope } from '../api/shop-scope';
import { parseCaseIdParam, useOrderForCase } from '../cart/order-for-case';
import { OrderForCaseBanner, useOrderTarget } from '../components/order-for-case';
import { ProductCard } from '../components/product-card';
import { ShopFilters } from '../components/shop-filters';

/** How long typing pauses before the search runs. */
export const SHOP_SEARCH_DEBOUNCE_MS = 350;

/**
 * /shop — the product grid with the category, most-ordered and text filters. `?caseId=…` (the
 * case page's 'Order more for this case') makes this tab's order one for that case.
 */
export function ShopPage() {
  const { t } = useTranslation();
  const { language } = useShopScope();
  const [params, setParams] = useSearchParams();
  const requestedCase = parseCaseIdParam(params.get('caseId'));
  const orderFor = useOrderForCase();
  const { setCaseId } = orderFor;
  useEffect(() => {
    if (requestedCase === null || !orderFor.ready) return;
    setCaseId(requestedCase);
    // Remembered for the checkout: the address bar goes back to the plain shop.
    setParams(
      (current) => {
        current.delete('caseId');
        return current;
      },
      { replace: true },
    );
  }, [requestedCase, orderFor.ready, setCaseId, setParams]);
  const target = useOrderTarget(orderFor.caseId ?? requestedCase);
  const [filter, dispatchFilter] = useReducer(shopFilterReducer, EMPTY_SHOP_FILTER);
  const [page, setPage] = useState(0);
  const [debouncedText] = useDebouncedValue(filter.text, SHOP_SEARCH_DEBOUNCE_MS);
  // Typing waits for a pause; clearing the text (by hand or by 'most ordered') applies at once.
  const list = useShopProductList({
    filter: { ...filter, text: filter.text ? debouncedText : '' },
    page,
  });
  const categories = useCategories();

  const changeFilter = (action: ShopFilterAction) => {
    dispatchFilter(action);
    setPage(0);
  };

  const data = list.data;
  const pages = pageCountOf(data, SHOP_PAGE_SIZE);
  const filtered = filter.categories.length > 0 || filter.text.trim() !== '' || filter.mostOrdered;

  let body: React.ReactNode;
  if (list.isLoading) {
    body = (
      <SimpleGrid
        cols={{ base: 1, xs: 2, md: 3, xl: 4 }}
        aria-busy="true"
        aria-label={t('shop:list.loading')}
      >
        {[0, 1, 2, 3, 4, 5].map((n) => (
          <Skeleton key={n} h={300} radius="md" />
        ))}
      </SimpleGrid>
    );
  } else if (list.isError) {
    body = (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(list.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void list.refetch()}>
          {t('shop:list.retry')}
        </Button>
      </Alert>
    );
  } else if (!data || data.items.length === 0) {
    body = (
      <EmptyState
        icon={<IconBuildingStore size={28} />}
        title={filtered ? t('shop:list.noMatchTitle') : t('shop:list.emptyTitle')}
        description={filtered ? t('shop:list.noMatchBody') : t('shop:list.emptyBody')}
        py="xl"
      />
    );
  } else {
    body = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('shop:list.total', { n: data.total })}
        </Text>
        <SimpleGrid
          cols={{ base: 1, xs: 2, md: 3, xl: 4 }}
          style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}
        >
          {data.items.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </SimpleGrid>
        <ListPagination page={page} pages={pages} onChange={setPage} compact />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('shop:list.title')}
      </Title>
      {target && <OrderForCaseBanner target={target} onLeave={() => setCaseId(null)} />}
      <ShopFilters
        filter={filter}
        onChange={changeFilter}
        categories={(categories.data ?? []).filter((category) => category.active)}
        categoriesLoading={categories.isLoading}
        language={language}
      />
      {body}
    </Stack>
  );
}
