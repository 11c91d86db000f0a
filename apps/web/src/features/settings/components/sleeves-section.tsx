import { useState } from 'react';
import {
  ActionIcon,
  Button,
  EmptyState,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconPencil, IconPlus, IconTrash, IconCircles } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  formatMoney,
  KIT_NAME_MAX,
  parseMoney,
  sleeveSettingSchema,
  type Currency,
  type SleeveSetting,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useSaveSettings, useSettings } from '../api/settings-sections';
import { MoneyField, moneyExample, moneyInputText } from './money-field';
import { QueryContent, SectionHeader } from './section-frame';

interface SleeveFormValues {
  sleeveManufacture: string;
  prices: Record<Currency, string>;
}

const validateSleeve = schemaValidator<SleeveSetting>(sleeveSettingSchema);

function SleeveForm(props: { sleeve: SleeveSetting | null; onClose: () => void }) {
  const { sleeve, onClose } = props;
  const { t } = useTranslation();
  const save = useSaveSettings('sleeves');

  const toSleeve = (values: SleeveFormValues): SleeveSetting => ({
    ...(sleeve?.id !== undefined ? { id: sleeve.id } : {}),
    sleeveManufacture: values.sleeveManufacture,
    prices: {
      BRL: parseMoney(values.prices.BRL, 'BRL') ?? Number.NaN,
      USD: parseMoney(values.prices.USD, 'USD') ?? Number.NaN,
    },
  });

  const form = useForm<SleeveFormValues>({
    initialValues: {
      sleeveManufacture: sleeve?.sleeveManufacture ?? '',
      prices: {
        BRL: sleeve ? moneyInputText(sleeve.prices.BRL, 'BRL') : '',
        USD: sleeve ? moneyInputText(sleeve.prices.USD, 'USD') : '',
      },
    },
    validate: (values) => {
      const errors: FormErrors = validateSleeve(toSleeve(values));
      for (const currency of CURRENCIES) {
        if (parseMoney(values.prices[currency], currency) === null) {
          errors[`prices.${currency}`] = t('admin:settings.common.invalidMoney', {
            example: moneyExample(currency),
          });
        }
      }
      return errors;
    },
  });

  const submit = form.onSubmit(
    (values) =>
      save.mutate(
        { sleeves: [sleeveSettingSchema.parse(toSleeve(values))] },
        {
          onSuccess: () => {
            showSuccess(t('admin:settings.sleeves.saved'));
            onClose();
          },
          onError: (error) => {
            form.setErrors(serverFieldErrors(error, 'sleeves.0'));
            showError(error);
          },
        },
      ),
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  return (
    <form onSubmit={submit} noValidate data-testid="sleeve-form">
      <Stack gap="sm">
        <TextInput
          label={t('admin:settings.sleeves.name')}
          required
          maxLength={KIT_NAME_MAX}
          data-autofocus
          data-testid="sleeve-name"
          {...form.getInputProps('sleeveManufacture')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {CURRENCIES.map((currency) => (
            <MoneyField
              key={currency}
              label={t('admin:settings.sleeves.price', { currency })}
              description={t('admin:settings.sleeves.priceHint', {
                example: formatMoney(123456, currency),
              })}
              currency={currency}
              inputProps={form.getInputProps(`prices.${currency}`)}
              onFormat={(text) => form.setFieldValue(`prices.${currency}`, text)}
              data-testid={`sleeve-price-${currency}`}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('admin:settings.common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="sleeve-save">
            {t('admin:settings.sleeves.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SleevesTable(props: {
  sleeves: SleeveSetting[];
  onEdit: (sleeve: SleeveSetting) => void;
}) {
  const { sleeves, onEdit } = props;
  const { t } = useTranslation();
  const save = useSaveSettings('sleeves');
  const [deleting, setDeleting] = useState<SleeveSetting | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    const { id, sleeveManufacture, prices } = deleting;
    save.mutate(
      {
        sleeves: [
          { ...(id !== undefined ? { id } : {}), sleeveManufacture, prices, deleted: true },
        ],
      },
      {
        onSuccess: () => {
          showSuccess(t('admin:settings.sleeves.deleted', { name: sleeveManufacture }));
          setDeleting(null);
        },
        onError: showError,
      },
    );
  };

  if (!sleeves.length) {
    return (
      <EmptyState
        icon={<IconCircles size={28} />}
        title={t('admin:settings.sleeves.emptyTitle')}
        description={t('admin:settings.sleeves.emptyBody')}
        py="xl"
      />
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="xs" aria-label={t('admin:settings.sleeves.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin:settings.sleeves.columns.name')}</Table.Th>
              {CURRENCIES.map((currency) => (
                <Table.Th key={currency} ta="right">
                  {t(`admin:settings.sleeves.columns.${currency}`)}
                </Table.Th>
              ))}
              <Table.Th>
                <VisuallyHidden>{t('admin:settings.sleeves.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sleeves.map((sleeve) => {
              const name = sleeve.sleeveManufacture;
              return (
                <Table.Tr key={sleeve.id ?? name} data-testid={`sleeve-row-${sleeve.id}`}>
                  <Table.Td>{name}</Table.Td>
                  {CURRENCIES.map((currency) => (
                    <Table.Td key={currency} ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMoney(sleeve.prices[currency], currency)}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label={t('admin:settings.sleeves.editLabel', { name })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('admin:settings.sleeves.editLabel', { name })}
                          onClick={() => onEdit(sleeve)}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('admin:settings.sleeves.deleteLabel', { name })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('admin:settings.sleeves.deleteLabel', { name })}
                          onClick={() => setDeleting(sleeve)}
                        >
                          <IconTrash size={16} />
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
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin:settings.sleeves.deleteTitle')}
        message={t('admin:settings.sleeves.deleteMessage', {
          name: deleting?.sleeveManufacture ?? '',
        })}
        confirmLabel={t('admin:settings.sleeves.deleteConfirm')}
        danger
        loading={save.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** Settings › Manufacturer: sleeve manufacturers and the price of one sleeve per currency. */
export function SleevesSection() {
  const { t } = useTranslation();
  const settings = useSettings('sleeves');
  const [editing, setEditing] = useState<'new' | SleeveSetting | null>(null);
  const dialogTitle =
    editing === null || editing === 'new'
      ? t('admin:settings.sleeves.createTitle')
      : t('admin:settings.sleeves.editTitle', { name: editing.sleeveManufacture });
  return (
    <Stack gap="md">
      <SectionHeader
        title={t('admin:settings.sleeves.title')}
        description={t('admin:settings.sleeves.description')}
        action={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('admin:settings.sleeves.new')}
          </Button>
        }
      />
      <QueryContent query={settings}>
        {({ sleeves }) => <SleevesTable sleeves={sleeves} onEdit={setEditing} />}
      </QueryContent>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={dialogTitle}
        centered
      >
        {editing !== null && (
          <SleeveForm
            key={editing === 'new' ? 'new' : (editing.id ?? editing.sleeveManufacture)}
            sleeve={editing === 'new' ? null : editing}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
