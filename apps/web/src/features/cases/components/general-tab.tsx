import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  List,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CASE_CHECK_KEYS, caseEditLock, type CaseDetail } from '@dentflow/domain';
import { useAttachmentLabel } from '../../attachments/attachment-label';
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
 * The case checks validation needs, each passing or not; a failing one says what it misses: the
 * services not paid yet (by name) and the required file slots without a file (with the way to the
 * Attachments tab).
 */
function CaseChecksCard({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const slotLabel = useAttachmentLabel();
  const unpaid = detail.services
    .filter((service) => detail.checks.unpaidServiceIds.includes(service.id))
    .map((service) => service.productName);
  const missing = detail.checks.missingSlots.map((slot) =>
    // A slot has no file id: the label comes from its kind (`bucketName.attachmentType`).
    slotLabel({ id: 0, bucketName: slot.bucketName, attachmentType: slot.attachmentType }),
  );
  const why: Partial<Record<(typeof CASE_CHECK_KEYS)[number], React.ReactNode>> = {
    transactions: unpaid.length > 0 && (
      <Text size="xs" c="dimmed" data-testid="check-unpaid">
        {t('cases:general.unpaidServices', { names: unpaid.join(', ') })}
      </Text>
    ),
    attachments: missing.length > 0 && (
      <Stack gap={0} align="flex-start" data-testid="check-missing-slots">
        <Text size="xs" c="dimmed">
          {t('cases:general.missingSlots', { names: missing.join(', ') })}
        </Text>
        <Anchor component={Link} to="?tab=attachments" size="xs">
          {t('cases:general.openAttachments')}
        </Anchor>
      </Stack>
    ),
  };
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="xs">
        {t('cases:general.checks')}
      </Title>
      <List spacing={4} size="sm" center>
        {CASE_CHECK_KEYS.map((key) => (
          <List.Item
            key={key}
            icon={
              <ThemeIcon size={20} radius="xl" color={detail.checks[key] ? 'green' : 'gray'}>
                {detail.checks[key] ? <IconCheck size={12} /> : <IconX size={12} />}
              </ThemeIcon>
            }
          >
            {t(`domain:caseChecks.${key}`)}
            {!detail.checks[key] && why[key]}
          </List.Item>
        ))}
      </List>
    </Card>
  );
}

/**
 * General tab: patient, observation, the delivery and address, the case checks and the services
 * with their data.
 */
export function GeneralTab({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const lock = caseEditLock(detail.caseStatus);
  return (
    <Stack>
      {lock && (
        <Alert color="gray" variant="light" data-testid="case-edit-lock">
          {t(`cases:general.locked.${lock}`)}
        </Alert>
      )}
      {/* Re-mounted when the stored case changes (a save, a stale-save reload). */}
      <PatientCard key={detail.modifiedAt} detail={detail} />
      <CaseCurrencyCard key={`currency-${detail.modifiedAt}`} detail={detail} />
      <DeliveryCard detail={detail} />
      <CaseChecksCard detail={detail} />
      <Card withBorder radius="md" padding="md">
        <ServicesSection detail={detail} />
      </Card>
    </Stack>
  );
}
