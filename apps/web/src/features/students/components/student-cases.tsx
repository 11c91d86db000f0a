import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconExternalLink, IconMessages } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CASE_PAGE_SIZE_DEFAULT, truncateName, type StudentCase } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { ListPagination, pageCountOf } from '../../../lib/ui/list-pagination';
import { ListStates } from '../../../lib/ui/list-states';
import { StatusBadge } from '../../cases/components/status-badge';
import { useStudentCases, type Student } from '../api/students-api';

function StudentCaseRow({ item }: { item: StudentCase }) {
  const { t } = useTranslation();
  const { fname, lname } = item.patient;
  return (
    <Table.Tr data-testid="student-case">
      <Table.Td>
        <Text size="sm" fw={500} title={`${fname} ${lname}`}>
          {truncateName(fname)} {truncateName(lname)}{' '}
          <Text span size="xs" c="dimmed">
            #{item.id}
          </Text>
        </Text>
        {item.services.length > 0 && (
          <Text size="xs" c="dimmed">
            {item.services.map((service) => service.productName).join(', ')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <StatusBadge status={item.caseStatus} archived={item.caseArchived} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(item.modifiedAt)}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          <Button
            component={Link}
            to={`/case/${item.id}`}
            size="compact-sm"
            variant="default"
            leftSection={<IconExternalLink size={14} />}
          >
            {t('admin:students.cases.open')}
          </Button>
          {/* The case view's chat tab holds the instructor channel with the student. */}
          <Button
            component={Link}
            to={`/case/${item.id}?tab=chat`}
            size="compact-sm"
            variant="light"
            leftSection={<IconMessages size={14} />}
          >
            {t('admin:students.cases.chat')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** A student's cases, read only, page by page, each with links to the case view and its chat. */
export function StudentCases({ student }: { student: Student }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const cases = useStudentCases(student.id, page);
  const label = t('admin:students.cases.label', { name: student.displayName });

  const pages = pageCountOf(cases.data, CASE_PAGE_SIZE_DEFAULT);
  return (
    <ListStates
      query={cases}
      isEmpty={(data) => data.total === 0}
      skeleton={{ rows: 2, height: 32 }}
      loadingLabel={t('admin:students.cases.loading')}
      retryLabel={t('admin:students.retry')}
      empty={
        <Text size="sm" c="dimmed" py="xs">
          {t('admin:students.cases.empty')}
        </Text>
      }
    >
      {(data) => (
        <Stack gap="xs">
          <Text size="xs" c="dimmed" aria-live="polite">
            {t('admin:students.cases.total', { n: data.total })} · {t('admin:students.cases.hint')}
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing={6} aria-label={label}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin:students.cases.patient')}</Table.Th>
                  <Table.Th>{t('admin:students.cases.status')}</Table.Th>
                  <Table.Th>{t('admin:students.cases.modifiedAt')}</Table.Th>
                  <Table.Th ta="right">{t('admin:students.cases.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((item) => (
                  <StudentCaseRow key={item.id} item={item} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPagination page={page} pages={pages} onChange={setPage} compact />
        </Stack>
      )}
    </ListStates>
  );
}
