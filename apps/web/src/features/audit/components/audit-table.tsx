import { Fragment, useState } from 'react';
import { Button, Code, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { languageTag } from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';
import type { AuditItem } from '@dentflow/domain';

const formatTime = (iso: string) =>
  new Date(iso).toLocaleString(languageTag(currentLanguage()), {
    dateStyle: 'short',
    timeStyle: 'medium',
  });

/** The audit rows: time, actor, action, record, and the details as JSON on demand. */
export function AuditTable({ items }: { items: AuditItem[] }) {
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
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin:audit.table.at')}</Table.Th>
            <Table.Th>{t('admin:audit.table.actor')}</Table.Th>
            <Table.Th>{t('admin:audit.table.action')}</Table.Th>
            <Table.Th>{t('admin:audit.table.record')}</Table.Th>
            <Table.Th>{t('admin:audit.table.details')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => {
            const expanded = open.has(item.id);
            return (
              <Fragment key={item.id}>
                <Table.Tr>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(item.at)}</Table.Td>
                  <Table.Td>
                    {item.actorUserId === null ? (
                      <Text size="sm" c="dimmed">
                        {t('admin:audit.table.system')}
                      </Text>
                    ) : (
                      <Text size="sm">
                        {item.actorName ?? '—'}{' '}
                        <Text span size="xs" c="dimmed">
                          #{item.actorUserId}
                        </Text>
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Code>{item.action}</Code>
                  </Table.Td>
                  <Table.Td>
                    {item.entity}
                    {item.entityId !== null && ` #${item.entityId}`}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      aria-expanded={expanded}
                      leftSection={
                        expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />
                      }
                      onClick={() => toggle(item.id)}
                    >
                      {expanded ? t('admin:audit.table.hide') : t('admin:audit.table.show')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Code block data-testid={`audit-details-${item.id}`}>
                        {JSON.stringify(item.details, null, 2)}
                      </Code>
                      {item.ip && (
                        <Text size="xs" c="dimmed" mt={4}>
                          {t('admin:audit.table.ip', { ip: item.ip })}
                        </Text>
                      )}
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
