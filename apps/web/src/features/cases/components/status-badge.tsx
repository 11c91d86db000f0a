import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  new: 'blue',
  revision: 'orange',
  checkingout: 'cyan',
  execute: 'indigo',
  approve: 'yellow',
  finishing: 'teal',
  print: 'grape',
  finished: 'green',
  closed: 'gray',
  cancelled: 'red',
  archive: 'gray',
};

/** A case status with its label from the domain catalogue. */
export function StatusBadge({ status, archived }: { status: string; archived?: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={archived ? 'gray' : (COLORS[status] ?? 'gray')} variant="light" radius="sm">
      {archived ? t('caseStatuses.archive', { ns: 'domain' }) : t(`domain:caseStatuses.${status}`)}
    </Badge>
  );
}
