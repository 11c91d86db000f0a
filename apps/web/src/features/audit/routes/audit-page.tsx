import { useSearchParams } from 'react-router';
import { EmptyState, Stack, Text, Title, useMatches } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AdminOnly } from '../../../app/guards/role-only';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates, usePastTheEndRedirect } from '../../../lib/ui/list-states';
import { useAuditList } from '../api/list-audit';
import { AuditFilters, type AuditFilterValues } from '../components/audit-filters';
import { AuditTable } from '../components/audit-table';

const FILTER_KEYS = ['actor', 'entity', 'entityId', 'from', 'to'] as const;

/** /audit — the audit log search, admins only (the server refuses the others too). */
export function AuditPage() {
  return (
    <AdminOnly>
      <AuditLog />
    </AdminOnly>
  );
}

function AuditLog() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const phone = useMatches({ base: true, sm: false });
  const filters = Object.fromEntries(
    FILTER_KEYS.map((key) => [key, params.get(key) ?? '']),
  ) as unknown as AuditFilterValues;
  const page = Math.max(0, Number(params.get('page')) || 0);
  const list = useAuditList({ ...filters, page });

  const update = (change: (next: URLSearchParams) => void, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace },
    );

  const changeFilters = (change: Partial<AuditFilterValues>) =>
    update((next) => {
      for (const [key, value] of Object.entries(change)) {
        if (value?.trim()) next.set(key, value.trim());
        else next.delete(key);
      }
      next.delete('page');
    }, true);

  const goToPage = (target: number) =>
    update((next) => {
      if (target > 0) next.set('page', String(target));
      else next.delete('page');
    });

  const data = list.data;
  const pages = pageCountOf(data, 20);
  usePastTheEndRedirect({ query: list, page, pages, goToPage });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin:audit.title')}
      </Title>
      <AuditFilters values={filters} onChange={changeFilters} />
      <ListStates
        query={list}
        skeleton={{ rows: 5, height: 40 }}
        loadingLabel={t('admin:audit.loading')}
        retryLabel={t('admin:audit.retry')}
        empty={
          <EmptyState
            icon={<IconHistory size={28} />}
            title={t('admin:audit.emptyTitle')}
            description={t('admin:audit.emptyBody')}
            py="xl"
          />
        }
      >
        {(answer) => (
          <Stack gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('admin:audit.total', { n: answer.total })}
            </Text>
            <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
              <AuditTable items={answer.items} />
            </div>
            <ListPagination page={page} pages={pages} onChange={goToPage} compact={phone} />
          </Stack>
        )}
      </ListStates>
    </Stack>
  );
}
