import { Progress, Stack, Stepper, Text, useMatches } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { caseStep, hasPrintableService, type CaseDetail } from '@dentflow/domain';

/** The case's place in the workflow by the domain's step numbers (print only when printable). */
export function StatusStepper({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const narrow = useMatches({ base: true, md: false });
  const hasPrintStep = hasPrintableService(detail.services);
  const step = caseStep(detail.caseStatus, { hasPrintStep });
  if (step === null) return null;
  const statuses = [
    'new',
    'checkingout',
    'execute',
    'approve',
    'finishing',
    ...(hasPrintStep ? ['print'] : []),
    'finished',
  ];
  const finished = detail.caseStatus === 'finished' || detail.caseStatus === 'closed';
  if (narrow) {
    // Seven steps do not fit a phone's width: a compact "step n of N" with a bar.
    return (
      <Stack gap={4} aria-label={t('cases:view.progress')}>
        <Text size="sm">
          {t('cases:view.stepOf', {
            step,
            total: statuses.length,
            status: t(`domain:caseStatuses.${detail.caseStatus}`),
          })}
        </Text>
        <Progress value={(step / statuses.length) * 100} size="sm" />
      </Stack>
    );
  }
  return (
    <Stepper
      active={finished ? statuses.length : step - 1}
      size="xs"
      iconSize={24}
      allowNextStepsSelect={false}
      aria-label={t('cases:view.progress')}
      styles={{ steps: { flexWrap: 'wrap', rowGap: 8 } }}
    >
      {statuses.map((status) => (
        <Stepper.Step
          key={status}
          label={t(`domain:caseStatuses.${status}`)}
          allowStepSelect={false}
        />
      ))}
    </Stepper>
  );
}
