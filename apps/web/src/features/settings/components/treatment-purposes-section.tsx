import { Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGES,
  TREATMENT_PURPOSES,
  TREATMENT_PURPOSE_TEXT_MAX,
  treatmentPurposesSettingsSchema,
  type TreatmentPurposeKey,
  type TreatmentPurposesSettings,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useSaveSettings, useSettings } from '../api/settings-sections';
import { QueryContent } from './section-frame';

const PURPOSE_KEYS = new Map(
  (Object.entries(TREATMENT_PURPOSES) as [TreatmentPurposeKey, number][]).map(([key, id]) => [
    id,
    key,
  ]),
);

function TreatmentPurposesForm(props: { settings: TreatmentPurposesSettings }) {
  const { t } = useTranslation();
  const save = useSaveSettings('treatmentPurposes');
  const form = useForm<TreatmentPurposesSettings>({
    initialValues: props.settings,
    validate: schemaValidator(treatmentPurposesSettingsSchema),
  });

  const submit = form.onSubmit(
    (values) =>
      save.mutate(treatmentPurposesSettingsSchema.parse(values), {
        onSuccess: (saved) => {
          form.setValues(saved);
          showSuccess(t('admin:settings.treatmentPurposes.saved'));
        },
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      }),
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  return (
    <form onSubmit={submit} noValidate data-testid="treatment-purposes-form">
      <Stack gap="sm">
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label={t('admin:settings.treatmentPurposes.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin:settings.treatmentPurposes.builtIn')}</Table.Th>
                {LANGUAGES.map((language) => (
                  <Table.Th key={language}>{t(`domain:languages.${language}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {form.values.treatmentPurposes.map((row, index) => {
                const key = PURPOSE_KEYS.get(row.purpose);
                const purpose = key ? t(`domain:treatmentPurposes.${key}`) : String(row.purpose);
                return (
                  <Table.Tr key={row.purpose}>
                    <Table.Td>{purpose}</Table.Td>
                    {LANGUAGES.map((language) => (
                      <Table.Td key={language}>
                        <TextInput
                          aria-label={t('admin:settings.treatmentPurposes.textLabel', {
                            purpose,
                            language: t(`domain:languages.${language}`),
                          })}
                          maxLength={TREATMENT_PURPOSE_TEXT_MAX}
                          {...form.getInputProps(`treatmentPurposes.${index}.${language}`)}
                        />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('admin:settings.treatmentPurposes.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Settings › Service metadata, treatment purposes: per language, a name the service data form
 * shows instead of the built-in label (empty keeps the built-in label).
 */
export function TreatmentPurposesSection() {
  const { t } = useTranslation();
  const settings = useSettings('treatmentPurposes');
  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Title order={3} size="h4">
          {t('admin:settings.treatmentPurposes.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('admin:settings.treatmentPurposes.description', { max: TREATMENT_PURPOSE_TEXT_MAX })}
        </Text>
      </Stack>
      <QueryContent query={settings}>
        {(purposes) => <TreatmentPurposesForm settings={purposes} />}
      </QueryContent>
    </Stack>
  );
}
