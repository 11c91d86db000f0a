import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Drawer,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { IconBox, IconPlus, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { foldText, LANGUAGES, type AdminProduct, type Category } from '@dentflow/domain';
import { errorMessage, showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useDeleteProduct } from '../api/delete-product';
import { useProduct } from '../api/get-product';
import { useAdminProducts } from '../api/list-admin-products';
import { useCategories } from '../api/list-categories';
import { AdminOnly } from '../../../app/guards/role-only';
import { ProductForm } from '../components/product-form';
import { ProductsTable } from '../components/products-table';

type Editing = { mode: 'new' } | { mode: 'edit'; id: number; code: string } | null;

/** Does a product match the search? Accents and case aside, over code, names and category. */
export function matchesProductSearch(
  product: AdminProduct,
  categories: readonly Category[],
  query: string,
): boolean {
  const wanted = foldText(query);
  if (!wanted) return true;
  const category = categories.find((c) => c.id === product.productCategory);
  const haystack = [
    product.code,
    ...LANGUAGES.map((language) => product.texts[language].name),
    ...(category ? LANGUAGES.map((language) => category.name[language]) : []),
  ];
  return haystack.some((text) => foldText(text).includes(wanted));
}

function LoadingRows() {
  return (
    <Stack gap="xs" aria-busy="true">
      {[0, 1, 2, 3].map((row) => (
        <Skeleton key={row} h={44} />
      ))}
    </Stack>
  );
}

/** The form of the product being edited, read fresh first; a new product starts empty. */
function ProductEditor(props: {
  editing: Exclude<Editing, null>;
  products: AdminProduct[];
  categories: Category[];
  onClose: () => void;
}) {
  const { editing, products, categories, onClose } = props;
  const product = useProduct(editing.mode === 'edit' ? editing.id : null);
  if (editing.mode === 'edit') {
    if (product.isError) return <Alert color="red">{errorMessage(product.error)}</Alert>;
    if (!product.data) return <LoadingRows />;
  }
  return (
    <ProductForm
      product={editing.mode === 'edit' ? product.data! : null}
      products={products}
      categories={categories}
      onSaved={onClose}
      onCancel={onClose}
    />
  );
}

function ProductsAdmin() {
  const { t } = useTranslation();
  const fullScreenForm = useMatches({ base: true, md: false });
  const products = useAdminProducts();
  const categories = useCategories();
  const deleteProduct = useDeleteProduct();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminProduct | null>(null);

  const categoryList = useMemo(() => categories.data ?? [], [categories.data]);
  const all = products.data ?? [];
  const shown = useMemo(
    () =>
      (products.data ?? []).filter((product) =>
        matchesProductSearch(product, categoryList, search),
      ),
    [products.data, categoryList, search],
  );

  let content: React.ReactNode;
  if (products.isLoading) {
    content = <LoadingRows />;
  } else if (products.isError) {
    content = (
      <Alert color="red">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(products.error)}</Text>
          <Button size="xs" variant="light" onClick={() => void products.refetch()}>
            {t('admin:products.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (all.length === 0) {
    content = (
      <EmptyState
        icon={<IconBox size={28} />}
        title={t('admin:products.emptyTitle')}
        description={t('admin:products.emptyBody')}
        py="xl"
      />
    );
  } else if (shown.length === 0) {
    content = (
      <EmptyState
        icon={<IconSearch size={28} />}
        title={t('admin:products.noMatchTitle')}
        description={t('admin:products.noMatchBody')}
        py="xl"
      />
    );
  } else {
    content = (
      <Stack gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('admin:products.total', { n: shown.length })}
        </Text>
        <ProductsTable
          products={shown}
          categories={categoryList}
          onEdit={(product) => setEditing({ mode: 'edit', id: product.id, code: product.code })}
          onDelete={setDeleting}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {t('admin:products.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ mode: 'new' })}>
          {t('admin:products.new')}
        </Button>
      </Group>
      <TextInput
        type="search"
        label={t('admin:products.search')}
        placeholder={t('admin:products.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
      />
      {content}
      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        // A phone gets the whole screen for the long form.
        size={fullScreenForm ? '100%' : 'xl'}
        title={
          <Text fw={600} size="lg" component="h2">
            {editing?.mode === 'edit'
              ? t('admin:products.form.editTitle', { code: editing.code })
              : t('admin:products.form.createTitle')}
          </Text>
        }
        closeButtonProps={{ 'aria-label': t('admin:products.form.cancel') }}
      >
        {editing && (
          <ProductEditor
            key={editing.mode === 'edit' ? editing.id : 'new'}
            editing={editing}
            products={all}
            categories={categoryList}
            onClose={() => setEditing(null)}
          />
        )}
      </Drawer>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin:products.deleteTitle')}
        message={t('admin:products.deleteConfirm', { code: deleting?.code ?? '' })}
        confirmLabel={t('admin:products.delete')}
        danger
        loading={deleteProduct.isPending}
        onConfirm={() =>
          deleting &&
          deleteProduct.mutate(deleting.id, {
            onSuccess: () => {
              showSuccess(t('admin:products.deletedNotice', { code: deleting.code }));
              setDeleting(null);
            },
            onError: (error) => {
              showError(error);
              setDeleting(null);
            },
          })
        }
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

/** /products — product administration (admin only). */
export function ProductsPage() {
  return (
    <AdminOnly>
      <ProductsAdmin />
    </AdminOnly>
  );
}
