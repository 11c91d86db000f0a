import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  EmptyState,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconPlus, IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AdminAnnouncement } from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useAnnouncements, useSaveAnnouncement } from '../api/announcements';
import { AnnouncementDialog, announcementTitle } from './announcement-dialog';
import { QueryContent, SectionHeader } from './section-frame';

/** Asks before activating: the announcement active now (if any) is named, it gets deactivated. */
function ActivateConfirm(props: {
  target: AdminAnnouncement | null;
  current: AdminAnnouncement | undefined;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { target, current, loading } = props;
  const { t } = useTranslation();
  const untitled = t('admin:settings.announcements.untitled');
  const title = target ? announcementTitle(target) || untitled : '';
  return (
    <Modal
      opened={target !== null}
      onClose={props.onClose}
      title={t('admin:settings.announcements.confirmTitle')}
      centered
    >
      <Text mb="lg" data-testid="announcement-activate-message">
        {current && current.id !== target?.id
          ? t('admin:settings.announcements.confirmMessage', {
              title,
              current: announcementTitle(current) || untitled,
            })
          : t('admin:settings.announcements.confirmMessageNone', { title })}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onClose} disabled={loading}>
          {t('admin:settings.common.cancel')}
        </Button>
        <Button
          onClick={props.onConfirm}
          loading={loading}
          data-autofocus
          data-testid="announcement-activate-confirm"
        >
          {t('admin:settings.announcements.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}

function AnnouncementsTable(props: {
  announcements: AdminAnnouncement[];
  onEdit: (announcement: AdminAnnouncement) => void;
}) {
  const { announcements, onEdit } = props;
  const { t } = useTranslation();
  const save = useSaveAnnouncement();
  const [activating, setActivating] = useState<AdminAnnouncement | null>(null);
  const current = announcements.find((announcement) => announcement.active);

  const setActive = (announcement: AdminAnnouncement, active: boolean) => {
    const title = announcementTitle(announcement);
    save.mutate(
      { id: announcement.id, active, texts: announcement.texts },
      {
        onSuccess: () => {
          showSuccess(
            t(
              active
                ? 'admin:settings.announcements.activated'
                : 'admin:settings.announcements.deactivated',
              { title },
            ),
          );
          setActivating(null);
        },
        onError: showError,
      },
    );
  };

  if (!announcements.length) {
    return (
      <EmptyState
        icon={<IconSpeakerphone size={28} />}
        title={t('admin:settings.announcements.emptyTitle')}
        description={t('admin:settings.announcements.emptyBody')}
        py="xl"
      />
    );
  }

  return (
    <>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="xs" aria-label={t('admin:settings.announcements.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin:settings.announcements.columns.title')}</Table.Th>
              <Table.Th>{t('admin:settings.announcements.columns.status')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('admin:settings.announcements.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {announcements.map((announcement) => {
              const title =
                announcementTitle(announcement) || t('admin:settings.announcements.untitled');
              const busy = save.isPending && save.variables?.id === announcement.id;
              return (
                <Table.Tr key={announcement.id} data-testid={`announcement-row-${announcement.id}`}>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {title}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={announcement.active ? 'green' : 'gray'}
                      variant="light"
                      data-testid={`announcement-status-${announcement.id}`}
                    >
                      {t(
                        announcement.active
                          ? 'admin:settings.announcements.active'
                          : 'admin:settings.announcements.inactive',
                      )}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {announcement.active ? (
                        <Button
                          size="xs"
                          variant="default"
                          loading={busy}
                          aria-label={t('admin:settings.announcements.deactivateLabel', { title })}
                          onClick={() => setActive(announcement, false)}
                          data-testid={`announcement-deactivate-${announcement.id}`}
                        >
                          {t('admin:settings.announcements.deactivate')}
                        </Button>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={t('admin:settings.announcements.activateLabel', { title })}
                          onClick={() => setActivating(announcement)}
                          data-testid={`announcement-activate-${announcement.id}`}
                        >
                          {t('admin:settings.announcements.activate')}
                        </Button>
                      )}
                      <Tooltip label={t('admin:settings.announcements.editLabel', { title })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('admin:settings.announcements.editLabel', { title })}
                          onClick={() => onEdit(announcement)}
                          data-testid={`announcement-edit-${announcement.id}`}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ActivateConfirm
        target={activating}
        current={current}
        loading={save.isPending}
        onConfirm={() => activating && setActive(activating, true)}
        onClose={() => setActivating(null)}
      />
    </>
  );
}

/** Settings › Announcements: the list, create/edit in three languages, one active at a time. */
export function AnnouncementsSection() {
  const { t } = useTranslation();
  const announcements = useAnnouncements();
  const [editing, setEditing] = useState<'new' | AdminAnnouncement | null>(null);
  return (
    <Stack gap="md">
      <SectionHeader
        title={t('admin:settings.announcements.title')}
        description={t('admin:settings.announcements.description')}
        action={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing('new')}
            data-testid="announcement-new"
          >
            {t('admin:settings.announcements.new')}
          </Button>
        }
      />
      <QueryContent query={announcements}>
        {(list) => <AnnouncementsTable announcements={list} onEdit={setEditing} />}
      </QueryContent>
      <AnnouncementDialog editing={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
