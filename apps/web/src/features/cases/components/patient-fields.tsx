import { Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  CASE_OBSERVATION_MAX,
  CASE_PATIENT_NOTE_MAX,
  PATIENT_GENDERS,
  casePatientSchema,
  type CasePatient,
} from '@dentflow/domain';
import { translateErrorKey } from '../../../lib/i18n';
import { DateField } from '../../../lib/ui/date-field';

/** The patient and observation as the form holds them (empty strings for nothing chosen). */
export interface PatientFormValues {
  fname: string;
  lname: string;
  birthDate: string;
  gender: string;
  note: string;
  observation: string;
}

export function patientFormValues(
  patient?: Partial<CasePatient> | null,
  observation?: string,
): PatientFormValues {
  return {
    fname: patient?.fname ?? '',
    lname: patient?.lname ?? '',
    birthDate: patient?.birthDate ?? '',
    gender: patient?.gender ?? '',
    note: patient?.note ?? '',
    observation: observation ?? '',
  };
}

/** The body's patient: empty optional fields become null. */
export function toCasePatient(values: PatientFormValues): CasePatient {
  return {
    fname: values.fname.trim(),
    lname: values.lname.trim(),
    birthDate: values.birthDate || null,
    gender: (values.gender || null) as CasePatient['gender'],
    note: values.note.trim() || null,
  };
}

/** The domain's patient rules (and the observation limit) before any round trip. */
export function validatePatientForm(values: PatientFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const result = casePatientSchema.safeParse(toCasePatient(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0]);
      errors[field] ??= translateErrorKey(issue.message);
    }
  }
  if (values.birthDate && values.birthDate > new Date().toISOString().slice(0, 10)) {
    errors.birthDate = translateErrorKey('validation.invalid');
  }
  if (values.observation.length > CASE_OBSERVATION_MAX) {
    errors.observation = translateErrorKey('validation.max');
  }
  return errors;
}

export function PatientFields({
  form,
  readOnly,
}: {
  form: UseFormReturnType<PatientFormValues>;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('cases:patient.fname')}
          required
          readOnly={readOnly}
          autoComplete="off"
          {...form.getInputProps('fname')}
        />
        <TextInput
          label={t('cases:patient.lname')}
          required
          readOnly={readOnly}
          autoComplete="off"
          {...form.getInputProps('lname')}
        />
        <DateField
          label={t('cases:patient.birthDate')}
          readOnly={readOnly}
          {...form.getInputProps('birthDate')}
        />
        <Select
          label={t('cases:patient.gender')}
          data={PATIENT_GENDERS.map((gender) => ({
            value: gender,
            label: t(`cases:patient.genders.${gender}`),
          }))}
          clearable
          readOnly={readOnly}
          {...form.getInputProps('gender')}
          value={form.values.gender || null}
          onChange={(value) => form.setFieldValue('gender', value ?? '')}
        />
      </SimpleGrid>
      <Textarea
        label={t('cases:patient.note')}
        autosize
        minRows={2}
        maxLength={CASE_PATIENT_NOTE_MAX}
        readOnly={readOnly}
        {...form.getInputProps('note')}
      />
      <Textarea
        label={t('cases:patient.observation')}
        description={t('cases:patient.observationHint')}
        autosize
        minRows={3}
        maxLength={CASE_OBSERVATION_MAX}
        readOnly={readOnly}
        {...form.getInputProps('observation')}
      />
    </Stack>
  );
}
