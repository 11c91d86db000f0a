import { Link, useLocation } from 'react-router';
import { Badge, NavLink } from '@mantine/core';
import { IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CASE_LIST_FILTERS, showsCaseListLink } from '@dentflow/domain';
import { useCaseCounts } from '../../features/cases/api/get-case-counts';

/**
 * The sidebar's case lists, each with its count; 'cancelled' only for those who have cancelled
 * cases (the domain's `showsCaseListLink`).
 */
export function CaseListLinks({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: counts } = useCaseCounts();
  return CASE_LIST_FILTERS.filter((filter) => showsCaseListLink(filter, counts?.[filter])).map(
    (filter) => (
      <NavLink
        key={filter}
        component={Link}
        to={`/cases/${filter}`}
        label={t(`cases.filters.${filter}`)}
        leftSection={<IconCircleDot size={16} />}
        rightSection={
          counts?.[filter] ? (
            <Badge
              size="sm"
              variant="light"
              radius="sm"
              aria-label={t('cases:counts', { n: counts[filter] })}
            >
              {counts[filter]}
            </Badge>
          ) : null
        }
        active={pathname === `/cases/${filter}`}
        onClick={onNavigate}
      />
    ),
  );
}
