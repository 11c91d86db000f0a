import { Fragment, useState } from 'react';
import { ActionIcon, Table, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Student } from '../api/students-api';
import { StudentCases } from './student-cases';

const COLUMNS = 4;

/**
 * The instructor's students (read only): name, email and how many cases each has; a row expands
 * to list that student's cases, loaded only when opened.
 */
export function StudentsTable({ students }: { students: Student[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover aria-label={t('admin:students.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={48}>
              <VisuallyHidden>{t('admin:students.table.expand')}</VisuallyHidden>
            </Table.Th>
            <Table.Th>{t('admin:students.table.name')}</Table.Th>
            <Table.Th>{t('admin:students.table.email')}</Table.Th>
            <Table.Th ta="right">{t('admin:students.table.cases')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {students.map((student) => {
            const expanded = open.has(student.id);
            const panelId = `student-cases-${student.id}`;
            return (
              <Fragment key={student.id}>
                <Table.Tr>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-expanded={expanded}
                      aria-controls={expanded ? panelId : undefined}
                      aria-label={t('admin:students.cases.label', { name: student.displayName })}
                      onClick={() => toggle(student.id)}
                    >
                      {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>{student.displayName}</Table.Td>
                  <Table.Td>{student.email}</Table.Td>
                  <Table.Td ta="right">{student.casesCount}</Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr id={panelId}>
                    <Table.Td colSpan={COLUMNS}>
                      <StudentCases student={student} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
