import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Student } from '../api/students-api';

/** The instructor's students (read only): name, email and how many cases each has. */
export function StudentsTable({ students }: { students: Student[] }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover aria-label={t('admin:students.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin:students.table.name')}</Table.Th>
            <Table.Th>{t('admin:students.table.email')}</Table.Th>
            <Table.Th ta="right">{t('admin:students.table.cases')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {students.map((student) => (
            <Table.Tr key={student.id}>
              <Table.Td>{student.displayName}</Table.Td>
              <Table.Td>{student.email}</Table.Td>
              <Table.Td ta="right">{student.casesCount}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
