import { Navigate, useParams } from 'react-router';
import { EmptyState, Stack, Title } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CASE_LIST_FILTER, isCaseListFilter } from '@dentflow/domain';

/**
 * /cases/:filter. The case list arrives with the cases issue; until then the page names the
 * filter and says the area is being prepared (no made-up cases).
 */
export function CasesPage() {
  const { t } = useTranslation();
  const { filter } = useParams();
  if (!isCaseListFilter(filter))
    return <Navigate to={`/cases/${DEFAULT_CASE_LIST_FILTER}`} replace />;
  const title = t(`cases.filters.${filter}`);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('cases.title', { filter: title })}
      </Title>
      <EmptyState
        icon={<IconFolders size={28} />}
        title={t('preparing.title')}
        description={t('cases.preparing')}
        py="xl"
      />
    </Stack>
  );
}
