import { Alert, Button, Card, Group, List, Stack, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isBroadNew, type CaseDetail } from '@dentflow/domain';
import { serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { isCaseChanged, useSetCase } from '../api/set-case';
import { DeliveryCard } from './delivery-card';
import { CaseCurrencyCard } from './case-currency-card';
import {
  PatientFields,
  patientFormValues,
  toCasePatient,
  validatePatientForm,
  type PatientFormValues,
} from './patient-fields';
import { ServicesSection } from './services-section';

const CHECKS = [
  ['services', 'servicesData'],
  ['patient', 'patient'],
  ['attachments', 'attachments'],
  ['transactions', 'transactions'],
] as const;

/** The owner edits while broad 'new'; a supervisor at any time (the server's `can`). */
export const mayEditCase = (detail: CaseDetail) =>
  detail.can.includes('edit') && !detail.readOnly && !detail.caseArchived;

function PatientCard({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const setCase = useSetCase(detail.id);
  const editable = mayEditCase(detail);
  const form = useForm<PatientFormValues>({
    initialValues: patientFormValues(detail.patient, detail.observation),
    validate: validatePatientForm,
  });

  const save = form.onSubmit((values) =>
    setCase.mutate(
      {
        patient: toCasePatient(values),
        observation: values.observation,
        modifiedAt: detail.modifiedAt,
      },
      {
        onSuccess: () => {
          showSuccess(t('cases:general.saved'));
          form.resetDirty();
        },
        onError: (error) => {
          if (isCaseChanged(error)) {
            // Nothing was saved; the case is read again and the form shows the stored values.
            showError(new Error(t('cases:general.changedElsewhere')));
            return;
          }
          form.setErrors(serverFieldErrors(error, 'patient'));
          showError(error);
        },
      },
    ),
  );

  return (
    <Card withBorder radius="md" padding="md">
      <form onSubmit={save} noValidate>
        <Stack>
          <Title order={2} size="h4">
            {t('cases:general.patient')}
          </Title>
          <PatientFields form={form} readOnly={!editable} />
          {editable && (
            <Group justify="flex-end">
              <Button type="submit" loading={setCase.isPending} disabled={!form.isDirty()}>
                {t('cases:general.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}

/**
 * General tab: patient, observation, the delivery and address, the case checks and the services
 * with their data.
 */
export function GeneralTab({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  return (
    <Stack>
      {!isBroadNew(detail.caseStatus) && (
        <Alert color="gray" variant="light">
          {t('cases:general.readOnlyHint')}
        </Alert>
      )}
      {/* Re-mounted when the stored case changes (a save, a stale-save reload). */}
      <PatientCard key={detail.modifiedAt} detail={detail} />
      <CaseCurrencyCard key={`currency-${detail.modifiedAt}`} detail={detail} />
      <DeliveryCard detail={detail} />
      <Card withBorder radius="md" padding="md">
        <Title order={2} size="h4" mb="xs">
          {t('cases:general.checks')}
        </Title>
        <List spacing={4} size="sm" center>
          {CHECKS.map(([key, label]) => (
            <List.Item
              key={key}
              icon={
                <ThemeIcon size={20} radius="xl" color={detail.checks[key] ? 'green' : 'gray'}>
                  {detail.checks[key] ? <IconCheck size={12} /> : <IconX size={12} />}
                </ThemeIcon>
              }
            >
              {t(`domain:caseChecks.${label}`)}
            </List.Item>
          ))}
        </List>
      </Card>
      <Card withBorder radius="md" padding="md">
        <ServicesSection detail={detail} />
      </Card>
    </Stack>
  );
}
