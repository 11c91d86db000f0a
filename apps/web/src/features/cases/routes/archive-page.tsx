import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  Button,
  Card,
  EmptyState,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArchive, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format-date';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates, usePastTheEndRedirect } from '../../../lib/ui/list-states';
import {
  ARCHIVABLE_STATUSES,
  CASE_PAGE_SIZE_DEFAULT,
  CURRENCIES,
  truncateName,
  type ArchivableStatus,
  type CasePreview,
  type Currency,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useArchive, type ArchiveSearchQuery } from '../api/list-archive';
import { useProducts } from '../api/list-products';
import { useUnarchiveCase } from '../api/unarchive-case';
import { StatusBadge } from '../components/status-badge';
import { DateField } from '../../../lib/ui/date-field';

interface SearchForm {
  patient: string;
  from: string;
  to: string;
  category: string;
  product: string;
  currency: string;
  status: string;
}

const EMPTY: SearchForm = {
  patient: '',
  from: '',
  to: '',
  category: '',
  product: '',
  currency: '',
  status: '',
};

export function toArchiveQuery(values: SearchForm): ArchiveSearchQuery {
  return {
    ...(values.patient.trim() ? { patient: values.patient.trim() } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    ...(values.category ? { category: Number(values.category) } : {}),
    ...(values.product ? { product: Number(values.product) } : {}),
    ...(values.currency ? { currency: values.currency as Currency } : {}),
    ...(values.status ? { status: values.status as ArchivableStatus } : {}),
  };
}

function ArchivedRow({
  item,
  onUnarchive,
}: {
  item: CasePreview;
  onUnarchive: (item: CasePreview) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="sm" data-testid="archived-case">
      <Group justify="space-between" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fw={600} truncate title={`${item.patient.fname} ${item.patient.lname}`}>
            {truncateName(item.patient.fname)} {truncateName(item.patient.lname)}{' '}
            <Text span size="xs" c="dimmed">
              #{item.id}
            </Text>
          </Text>
          <Group gap={6}>
            <StatusBadge status={item.caseStatus} />
            <Text size="xs" c="dimmed">
              {t('cases:archive.createdAt', { date: formatDate(item.createdAt) })} ·{' '}
              {item.caseCurrency}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {item.services.map((service) => service.productName).join(', ')}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button component={Link} to={`/case/${item.id}`} size="xs" variant="default">
            {t('cases:preview.open')}
          </Button>
          <Button size="xs" variant="light" onClick={() => onUnarchive(item)}>
            {t('caseActions.unarchive', { ns: 'domain' })}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/**
 * /archive — the archive search (patient, dates, category, product, currency, and the case's
 * status: finished, closed or cancelled) and un-archive.
 */
export function ArchivePage() {
  const { t } = useTranslation();
  const products = useProducts();
  const [search, setSearch] = useState<ArchiveSearchQuery>({});
  const [page, setPage] = useState(0);
  const [unarchiving, setUnarchiving] = useState<CasePreview | null>(null);
  const archive = useArchive(page, search);
  const unarchive = useUnarchiveCase();
  const form = useForm<SearchForm>({
    initialValues: EMPTY,
    validate: {
      to: (to, values) =>
        to && values.from && to < values.from ? t('cases:archive.endBeforeStart') : null,
    },
  });

  const categories = useMemo(() => {
    const seen = new Map<number, string>();
    for (const product of products.data ?? [])
      seen.set(product.productCategoryId, product.categoryName);
    return [...seen].map(([id, name]) => ({ value: String(id), label: name }));
  }, [products.data]);
  const productOptions = (products.data ?? [])
    .filter((p) => !form.values.category || String(p.productCategoryId) === form.values.category)
    .map((p) => ({ value: String(p.id), label: p.name }));

  const data = archive.data;
  const pages = pageCountOf(data, CASE_PAGE_SIZE_DEFAULT);
  // Un-archiving the last case of the last page would otherwise leave "no archived cases".
  usePastTheEndRedirect({ query: archive, page, pages, goToPage: setPage });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('cases:archive.title')}
      </Title>
      <Card withBorder radius="md" padding="md">
        <form
          role="search"
          onSubmit={form.onSubmit((values) => {
            setPage(0);
            setSearch(toArchiveQuery(values));
          })}
          noValidate
        >
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              <TextInput
                label={t('cases:archive.patient')}
                maxLength={120}
                {...form.getInputProps('patient')}
              />
              <DateField label={t('cases:archive.from')} {...form.getInputProps('from')} />
              <DateField label={t('cases:archive.to')} {...form.getInputProps('to')} />
              <Select
                label={t('cases:archive.category')}
                data={categories}
                clearable
                value={form.values.category || null}
                onChange={(value) => {
                  form.setFieldValue('category', value ?? '');
                  form.setFieldValue('product', '');
                }}
              />
              <Select
                label={t('cases:archive.product')}
                data={productOptions}
                clearable
                searchable
                value={form.values.product || null}
                onChange={(value) => form.setFieldValue('product', value ?? '')}
              />
              <Select
                label={t('cases:archive.currency')}
                data={CURRENCIES.map((currency) => ({ value: currency, label: currency }))}
                clearable
                value={form.values.currency || null}
                onChange={(value) => form.setFieldValue('currency', value ?? '')}
              />
              <Select
                label={t('cases:archive.status')}
                data={ARCHIVABLE_STATUSES.map((status) => ({
                  value: status,
                  label: t(`domain:caseStatuses.${status}`),
                }))}
                clearable
                value={form.values.status || null}
                onChange={(value) => form.setFieldValue('status', value ?? '')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  form.setValues(EMPTY);
                  setPage(0);
                  setSearch({});
                }}
              >
                {t('cases:archive.clear')}
              </Button>
              <Button type="submit" leftSection={<IconSearch size={16} />}>
                {t('cases:archive.search')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <ListStates
        query={archive}
        skeleton={{ rows: 2, height: 80, radius: 'md' }}
        retryLabel={t('cases:list.retry')}
        empty={
          <EmptyState
            icon={<IconArchive size={28} />}
            title={t('cases:archive.emptyTitle')}
            description={t('cases:archive.emptyBody')}
            py="xl"
          />
        }
      >
        {(answer) => (
          <Stack gap="xs">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('cases:list.total', { n: answer.total })}
            </Text>
            {answer.items.map((item) => (
              <ArchivedRow key={item.id} item={item} onUnarchive={setUnarchiving} />
            ))}
            <ListPagination page={page} pages={pages} onChange={setPage} compact />
          </Stack>
        )}
      </ListStates>
      <ConfirmDialog
        opened={unarchiving !== null}
        title={t('caseActions.unarchive', { ns: 'domain' })}
        message={t('cases:archive.unarchiveConfirm', {
          name: unarchiving ? `${unarchiving.patient.fname} ${unarchiving.patient.lname}` : '',
        })}
        confirmLabel={t('caseActions.unarchive', { ns: 'domain' })}
        loading={unarchive.isPending}
        onConfirm={() =>
          unarchiving &&
          unarchive.mutate(unarchiving.id, {
            onSuccess: () => {
              showSuccess(t('cases:archive.unarchived'));
              setUnarchiving(null);
            },
            onError: (error) => {
              showError(error);
              setUnarchiving(null);
            },
          })
        }
        onClose={() => setUnarchiving(null)}
      />
    </Stack>
  );
}
