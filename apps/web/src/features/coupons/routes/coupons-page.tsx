import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Button,
  EmptyState,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { IconPlus, IconSearch, IconTicket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AdminOnly } from '../../../app/guards/role-only';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates, usePastTheEndRedirect } from '../../../lib/ui/list-states';
import {
  ADMIN_PAGE_SIZE,
  COUPON_LIST_FILTERS,
  type AdminCoupon,
  type CouponListFilter,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useDeleteCoupon } from '../api/delete-coupon';
import { useCategoryOptions, useProductOptions } from '../api/list-binding-options';
import { useCouponList } from '../api/list-coupons';
import { CouponFormModal } from '../components/coupon-form-modal';
import { CouponTable } from '../components/coupon-table';
import { useDebouncedUrlUpdate } from '../../../lib/use-debounced-url-update';

/** How long typing pauses before the search runs. */
export const COUPON_SEARCH_DEBOUNCE_MS = 350;

const isCouponListFilter = (value: unknown): value is CouponListFilter =>
  COUPON_LIST_FILTERS.includes(value as CouponListFilter);

/** /coupoms — coupon administration, admins only (the server refuses the others too). */
export function CouponsPage() {
  return (
    <AdminOnly>
      <CouponAdmin />
    </AdminOnly>
  );
}

/** What the edit dialog shows: closed, a new coupon, or one to edit. */
type Editing = { coupon: AdminCoupon | null } | null;

function CouponAdmin() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const rawFilter = params.get('filter');
  const filter: CouponListFilter = isCouponListFilter(rawFilter) ? rawFilter : 'all';
  const page = Math.max(0, Number(params.get('page')) || 0);
  const q = params.get('q') ?? '';
  const [search, setSearch] = useState(q);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminCoupon | null>(null);
  const phone = useMatches({ base: true, sm: false });
  const list = useCouponList({ filter, page, q });
  const products = useProductOptions();
  const categories = useCategoryOptions();
  const remove = useDeleteCoupon();

  const update = (change: (next: URLSearchParams) => void, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace },
    );

  const applySearch = useDebouncedUrlUpdate((value: string) => {
    update((next) => {
      if (value.trim()) next.set('q', value.trim());
      else next.delete('q');
      next.delete('page');
    }, true);
  }, COUPON_SEARCH_DEBOUNCE_MS);

  const chooseFilter = (value: string) =>
    update((next) => {
      if (value === 'all') next.delete('filter');
      else next.set('filter', value);
      next.delete('page');
    });

  const goToPage = (target: number) =>
    update((next) => {
      if (target > 0) next.set('page', String(target));
      else next.delete('page');
    });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        showSuccess(t('admin:coupons.deleted', { code: deleting.name }));
        setDeleting(null);
      },
      onError: showError,
    });
  };

  const data = list.data;
  const pages = pageCountOf(data, ADMIN_PAGE_SIZE);
  usePastTheEndRedirect({ query: list, page, pages, goToPage });

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={1} size="h2">
          {t('admin:coupons.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ coupon: null })}>
          {t('admin:coupons.new')}
        </Button>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          value={filter}
          onChange={chooseFilter}
          fullWidth={phone}
          w={phone ? '100%' : undefined}
          aria-label={t('admin:coupons.filterLabel')}
          data={COUPON_LIST_FILTERS.map((value) => ({
            value,
            label: t(`admin:coupons.filters.${value}`),
          }))}
        />
        <TextInput
          style={{ flex: 1, minWidth: 200 }}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          leftSection={<IconSearch size={16} />}
          placeholder={t('admin:coupons.searchPlaceholder')}
          aria-label={t('admin:coupons.search')}
          type="search"
          maxLength={60}
        />
      </Group>
      <ListStates
        query={list}
        skeleton={{ rows: 5, height: 44 }}
        loadingLabel={t('admin:coupons.loading')}
        retryLabel={t('admin:coupons.retry')}
        empty={
          <EmptyState
            icon={<IconTicket size={28} />}
            title={q ? t('admin:coupons.noMatchTitle') : t('admin:coupons.emptyTitle')}
            description={q ? t('admin:coupons.noMatchBody', { q }) : t('admin:coupons.emptyBody')}
            py="xl"
          />
        }
      >
        {(answer) => (
          <Stack gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('admin:coupons.total', { n: answer.total })}
            </Text>
            <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
              <CouponTable
                coupons={answer.items}
                products={products.data}
                categories={categories.data}
                onEdit={(coupon) => setEditing({ coupon })}
                onDelete={setDeleting}
              />
            </div>
            <ListPagination page={page} pages={pages} onChange={goToPage} compact={phone} />
          </Stack>
        )}
      </ListStates>
      <CouponFormModal
        opened={editing !== null}
        coupon={editing?.coupon ?? null}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin:coupons.deleteTitle')}
        message={t('admin:coupons.deleteMessage', { code: deleting?.name ?? '' })}
        confirmLabel={t('admin:coupons.delete')}
        danger
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
