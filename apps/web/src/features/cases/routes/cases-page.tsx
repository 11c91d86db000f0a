import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  Box,
  Button,
  Checkbox,
  EmptyState,
  Grid,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { IconFolders, IconPlus, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates } from '../../../lib/ui/list-states';
import {
  CASE_PAGE_SIZE_DEFAULT,
  DEFAULT_CASE_LIST_FILTER,
  formatListTotal,
  isCaseListFilter,
  isDoctor,
  sessionRoles,
  type CaseListFilter,
  type CasePreview,
} from '@dentflow/domain';
import { useProfile } from '../../profile/api/get-profile';
import { caseListQueryOfUrl, useCaseList } from '../api/list-cases';
import { CaseCard } from '../components/case-card';
import { CasePreviewPane } from '../components/case-preview';
import { useDebouncedUrlUpdate } from '../../../lib/use-debounced-url-update';
import { currentLanguage } from '../../../lib/i18n';

/** How long typing pauses before the search runs. */
export const SEARCH_DEBOUNCE_MS = 350;

/** /cases/:filter — the case list of a status filter. */
export function CasesPage() {
  const { filter } = useParams();
  if (!isCaseListFilter(filter))
    return <Navigate to={`/cases/${DEFAULT_CASE_LIST_FILTER}`} replace />;
  // A new filter starts a fresh list (page, search and selection).
  return <CaseListView key={filter} filter={filter} />;
}

function CaseListView({ filter }: { filter: CaseListFilter }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: profile } = useProfile();
  const [params, setParams] = useSearchParams();
  const query = caseListQueryOfUrl(filter, params);
  const { page, q, all } = query;
  const [search, setSearch] = useState(q);
  const [selected, setSelected] = useState<number | null>(null);
  const desktop = useMatches({ base: false, md: true });
  const list = useCaseList(query);
  const setAll = (checked: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (checked) next.set('all', '1');
        else next.delete('all');
        next.delete('page');
        return next;
      },
      { replace: true },
    );

  const applySearch = useDebouncedUrlUpdate((value: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value.trim()) next.set('q', value.trim());
        else next.delete('q');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, SEARCH_DEBOUNCE_MS);

  const goToPage = (target: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (target > 0) next.set('page', String(target));
      else next.delete('page');
      return next;
    });

  const open = (item: CasePreview) => {
    if (desktop) setSelected(item.id);
    else void navigate(`/case/${item.id}`);
  };

  const mayCreate = isDoctor(sessionRoles(profile?.roles ?? []));
  const data = list.data;
  const pages = pageCountOf(data, CASE_PAGE_SIZE_DEFAULT);

  const body = (
    <ListStates
      query={list}
      skeleton={{ rows: 4, height: 110, radius: 'md' }}
      loadingLabel={t('cases:list.loading')}
      retryLabel={t('cases:list.retry')}
      empty={
        <EmptyState
          icon={<IconFolders size={28} />}
          title={q ? t('cases:list.noMatchTitle') : t('cases:list.emptyTitle')}
          description={q ? t('cases:list.noMatchBody', { q }) : t('cases:list.emptyBody')}
          py="xl"
        />
      }
    >
      {(answer) => (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {/* A search counts up to a cap: "1,000+" beyond it, in the reader's number format. */}
            {t('cases:list.total', { n: formatListTotal(answer, currentLanguage()) })}
          </Text>
          <Stack gap="xs" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
            {answer.items.map((item) => (
              <CaseCard
                key={item.id}
                item={item}
                selected={desktop && selected === item.id}
                onOpen={open}
              />
            ))}
          </Stack>
          <ListPagination page={page} pages={pages} onChange={goToPage} compact={!desktop} />
        </Stack>
      )}
    </ListStates>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={1} size="h2">
          {t('cases:list.title', { filter: t(`cases.filters.${filter}`) })}
        </Title>
        {mayCreate && (
          <Button component={Link} to="/cases/create" leftSection={<IconPlus size={16} />}>
            {t('cases:list.newCase')}
          </Button>
        )}
      </Group>
      <TextInput
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          applySearch(event.currentTarget.value);
        }}
        leftSection={<IconSearch size={16} />}
        placeholder={t('cases:list.searchPlaceholder')}
        aria-label={t('cases:list.search')}
        type="search"
        maxLength={120}
      />
      <Checkbox
        label={t('cases:list.searchAll')}
        checked={all}
        onChange={(event) => setAll(event.currentTarget.checked)}
        data-testid="search-all-lists"
      />
      {desktop ? (
        <Grid gap="md">
          <Grid.Col span={{ md: 6, lg: 7 }}>{body}</Grid.Col>
          <Grid.Col span={{ md: 6, lg: 5 }}>
            <Box pos="sticky" top={90}>
              <CasePreviewPane caseId={selected} />
            </Box>
          </Grid.Col>
        </Grid>
      ) : (
        body
      )}
    </Stack>
  );
}
