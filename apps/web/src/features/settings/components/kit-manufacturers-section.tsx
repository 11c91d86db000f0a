import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Divider,
  EmptyState,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  KIT_NAME_MAX,
  KIT_SYSTEMS_MAX,
  kitManufacturerSchema,
  type KitManufacturer,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useSaveSettings, useSettings } from '../api/settings-sections';
import { QueryContent, SectionHeader } from './section-frame';
import { TreatmentPurposesSection } from './treatment-purposes-section';

/** What the edit dialog shows: closed, or the row's index in the list (`null` = a new row). */
type Editing = { index: number | null } | null;

/**
 * The list with row `index` replaced (or appended when `index` is null): the section's POST
 * replaces the whole list, so every other row goes back unchanged.
 */
const withRow = (list: KitManufacturer[], index: number | null, row: KitManufacturer) =>
  index === null ? [...list, row] : list.map((current, i) => (i === index ? row : current));

function KitManufacturerForm(props: {
  list: KitManufacturer[];
  index: number | null;
  onClose: () => void;
}) {
  const { list, index, onClose } = props;
  const { t } = useTranslation();
  const save = useSaveSettings('serviceMetadata');
  const existing = index === null ? null : (list[index] ?? null);
  const form = useForm<KitManufacturer>({
    initialValues: existing
      ? { ...existing, systems: [...existing.systems] }
      : { manufactureName: '', systems: [], active: true },
    validate: schemaValidator(kitManufacturerSchema),
  });
  const rowIndex = index ?? list.length;

  const submit = form.onSubmit(
    (values) =>
      save.mutate(
        { kitManufacturers: withRow(list, index, kitManufacturerSchema.parse(values)) },
        {
          onSuccess: () => {
            showSuccess(t('admin:settings.serviceMetadata.saved'));
            onClose();
          },
          onError: (error) => {
            form.setErrors(serverFieldErrors(error, `kitManufacturers.${rowIndex}`));
            showError(error);
          },
        },
      ),
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  // A system's own error (`systems.2`) is shown under the whole input.
  const systemsError = Object.entries(form.errors).find(([path]) => path.startsWith('systems'));

  return (
    <form onSubmit={submit} noValidate data-testid="kit-manufacturer-form">
      <Stack gap="sm">
        <TextInput
          label={t('admin:settings.serviceMetadata.name')}
          required
          maxLength={KIT_NAME_MAX}
          data-autofocus
          {...form.getInputProps('manufactureName')}
        />
        <TagsInput
          label={t('admin:settings.serviceMetadata.systems')}
          description={t('admin:settings.serviceMetadata.systemsHint')}
          maxTags={KIT_SYSTEMS_MAX}
          clearable
          {...form.getInputProps('systems')}
          error={systemsError?.[1]}
        />
        <Switch
          label={t('admin:settings.serviceMetadata.active')}
          description={t('admin:settings.serviceMetadata.activeHint')}
          {...form.getInputProps('active', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('admin:settings.common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('admin:settings.serviceMetadata.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function KitManufacturersTable(props: {
  list: KitManufacturer[];
  onEdit: (index: number) => void;
}) {
  const { list, onEdit } = props;
  const { t } = useTranslation();
  const save = useSaveSettings('serviceMetadata');

  const toggle = (index: number, active: boolean) => {
    const row = list[index];
    if (!row) return;
    save.mutate(
      { kitManufacturers: withRow(list, index, { ...row, active }) },
      {
        onSuccess: () =>
          showSuccess(
            t(
              active
                ? 'admin:settings.serviceMetadata.activated'
                : 'admin:settings.serviceMetadata.deactivated',
              { name: row.manufactureName },
            ),
          ),
        onError: showError,
      },
    );
  };

  if (!list.length) {
    return (
      <EmptyState
        icon={<IconTool size={28} />}
        title={t('admin:settings.serviceMetadata.emptyTitle')}
        description={t('admin:settings.serviceMetadata.emptyBody')}
        py="xl"
      />
    );
  }
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing="xs" aria-label={t('admin:settings.serviceMetadata.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin:settings.serviceMetadata.columns.name')}</Table.Th>
            <Table.Th>{t('admin:settings.serviceMetadata.columns.systems')}</Table.Th>
            <Table.Th>{t('admin:settings.serviceMetadata.columns.active')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('admin:settings.serviceMetadata.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((row, index) => {
            const name = row.manufactureName;
            return (
              <Table.Tr key={row.id ?? name} data-testid={`kit-manufacturer-row-${row.id}`}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>
                  {row.systems.length ? (
                    <Group gap={4}>
                      {row.systems.map((system) => (
                        <Badge key={system} variant="light" tt="none">
                          {system}
                        </Badge>
                      ))}
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('admin:settings.serviceMetadata.noSystems')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={row.active}
                    disabled={save.isPending}
                    aria-label={t('admin:settings.serviceMetadata.activeLabel', { name })}
                    onChange={(event) => toggle(index, event.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <Tooltip label={t('admin:settings.serviceMetadata.editLabel', { name })}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('admin:settings.serviceMetadata.editLabel', { name })}
                      onClick={() => onEdit(index)}
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Settings › Service metadata: surgical kit manufacturers and their systems, then the names of
 * the treatment purposes.
 */
export function KitManufacturersSection() {
  const { t } = useTranslation();
  const settings = useSettings('serviceMetadata');
  const [editing, setEditing] = useState<Editing>(null);
  const list = settings.data?.kitManufacturers ?? [];
  const editingName = editing?.index != null ? list[editing.index]?.manufactureName : undefined;
  return (
    <Stack gap="md">
      <SectionHeader
        title={t('admin:settings.serviceMetadata.title')}
        description={t('admin:settings.serviceMetadata.description')}
        action={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing({ index: null })}
            disabled={!settings.data}
          >
            {t('admin:settings.serviceMetadata.new')}
          </Button>
        }
      />
      <QueryContent query={settings}>
        {({ kitManufacturers }) => (
          <KitManufacturersTable
            list={kitManufacturers}
            onEdit={(index) => setEditing({ index })}
          />
        )}
      </QueryContent>
      <Divider my="sm" />
      <TreatmentPurposesSection />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editingName === undefined
            ? t('admin:settings.serviceMetadata.createTitle')
            : t('admin:settings.serviceMetadata.editTitle', { name: editingName })
        }
        centered
      >
        {editing !== null && (
          <KitManufacturerForm
            key={editing.index ?? 'new'}
            list={list}
            index={editing.index}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
