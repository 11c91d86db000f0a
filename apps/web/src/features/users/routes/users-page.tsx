import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  EmptyState,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { IconSearch, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ROLES, USERS_PAGE_SIZE, type Role, type UsersListQuery } from '@dentflow/domain';
import { SupervisorOnly } from '../../../app/guards/role-only';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates, usePastTheEndRedirect } from '../../../lib/ui/list-states';
import { useUsersList } from '../api/list-users';
import { UsersTable } from '../components/users-table';
import { useDebouncedUrlUpdate } from '../../../lib/use-debounced-url-update';

/** How long typing pauses before the search runs. */
export const USERS_SEARCH_DEBOUNCE_MS = 350;

const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

const flagOf = (value: string | null): boolean | undefined =>
  value === 'true' ? true : value === 'false' ? false : undefined;

/** /users — supervisors read, admins edit (the server refuses the others too). */
export function UsersPage() {
  return (
    <SupervisorOnly>
      <UsersAdmin />
    </SupervisorOnly>
  );
}

function UsersAdmin() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page')) || 0);
  const rawRole = params.get('role');
  const q = params.get('q') ?? '';
  const filters: UsersListQuery = {};
  if (isRole(rawRole)) filters.role = rawRole;
  const verified = flagOf(params.get('verified'));
  if (verified !== undefined) filters.verified = verified;
  const internal = flagOf(params.get('internal'));
  if (internal !== undefined) filters.internal = internal;
  if (q.trim()) filters.q = q.trim();
  const filtered = Object.keys(filters).length > 0;

  const [search, setSearch] = useState(q);
  const phone = useMatches({ base: true, sm: false });
  const list = useUsersList(page, filters);

  const update = (change: (next: URLSearchParams) => void, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace },
    );

  /** A changed filter starts again at the first page. */
  const setFilter = (name: string, value: string | null, replace = false) =>
    update((next) => {
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
    }, replace);

  const applySearch = useDebouncedUrlUpdate(
    (value: string) => setFilter('q', value.trim() || null, true),
    USERS_SEARCH_DEBOUNCE_MS,
  );

  const goToPage = (target: number) =>
    update((next) => {
      if (target > 0) next.set('page', String(target));
      else next.delete('page');
    });

  const data = list.data;
  const pages = pageCountOf(data, USERS_PAGE_SIZE);
  usePastTheEndRedirect({ query: list, page, pages, goToPage });

  const flagOptions = [
    { value: 'true', label: t('admin:users.yes') },
    { value: 'false', label: t('admin:users.no') },
  ];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin:users.title')}
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          style={{ flex: 1, minWidth: 220 }}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            applySearch(event.currentTarget.value);
          }}
          leftSection={<IconSearch size={16} />}
          label={t('admin:users.search')}
          placeholder={t('admin:users.searchPlaceholder')}
          type="search"
          maxLength={120}
          data-testid="users-search"
        />
        <Select
          w={phone ? '100%' : 180}
          label={t('admin:users.filters.role')}
          placeholder={t('admin:users.filters.any')}
          data={ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
          value={filters.role ?? null}
          onChange={(value) => setFilter('role', value)}
          clearable
          data-testid="users-filter-role"
        />
        <Select
          w={phone ? '100%' : 150}
          label={t('admin:users.filters.verified')}
          placeholder={t('admin:users.filters.any')}
          data={flagOptions}
          value={verified === undefined ? null : String(verified)}
          onChange={(value) => setFilter('verified', value)}
          clearable
          data-testid="users-filter-verified"
        />
        <Select
          w={phone ? '100%' : 150}
          label={t('admin:users.filters.internal')}
          placeholder={t('admin:users.filters.any')}
          data={flagOptions}
          value={internal === undefined ? null : String(internal)}
          onChange={(value) => setFilter('internal', value)}
          clearable
          data-testid="users-filter-internal"
        />
      </Group>
      <ListStates
        query={list}
        skeleton={{ rows: 5, height: 44 }}
        loadingLabel={t('admin:users.loading')}
        retryLabel={t('admin:users.retry')}
        empty={
          <EmptyState
            icon={<IconUsers size={28} />}
            title={filtered ? t('admin:users.noMatchTitle') : t('admin:users.emptyTitle')}
            description={filtered ? t('admin:users.noMatchBody') : t('admin:users.emptyBody')}
            py="xl"
          />
        }
      >
        {(answer) => (
          <Stack gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('admin:users.total', { n: answer.total })}
            </Text>
            <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
              <UsersTable users={answer.items} cards={phone} />
            </div>
            <ListPagination page={page} pages={pages} onChange={goToPage} compact={phone} />
          </Stack>
        )}
      </ListStates>
    </Stack>
  );
}
