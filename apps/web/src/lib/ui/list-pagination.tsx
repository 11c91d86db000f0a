import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The number of pages of a paged answer, at least one (an empty list still shows its page),
 * by the answer's page size or, before the first answer, the one the list asks for.
 */
export const pageCountOf = (
  data: { total: number; pageSize?: number } | undefined,
  pageSize: number,
): number => (data ? Math.max(1, Math.ceil(data.total / (data.pageSize || pageSize))) : 1);

/**
 * The pager under a list: zero-based pages like the API, hidden when there is one page; the
 * controls are labelled for screen readers. `compact` shows no sibling pages (phones, narrow
 * panes).
 */
export function ListPagination({
  page,
  pages,
  onChange,
  compact = false,
}: {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Group justify="center">
      <Pagination
        total={pages}
        value={page + 1}
        onChange={(oneBased) => onChange(oneBased - 1)}
        size="sm"
        siblings={compact ? 0 : 1}
        boundaries={1}
        getControlProps={(control) => ({ 'aria-label': t(`pager.${control}`) })}
        getItemProps={(n) => ({ 'aria-label': t('pager.page', { n }) })}
      />
    </Group>
  );
}
