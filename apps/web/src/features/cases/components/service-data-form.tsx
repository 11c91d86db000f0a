import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  JAWS,
  TREATMENT_PURPOSES,
  emptyServiceDataV3,
  serviceDataSections,
  serviceDataV3Problems,
  serviceDataV3Schema,
  teethCountProblem,
  treatmentPurposeTextFor,
  type ServiceDataSection,
  type ServiceDataV3,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { currentLanguage, translateErrorKey } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/notify';
import { useKits } from '../../metadata/api/get-kits';
import { ToothChart } from './tooth-chart';

/** The stored data read as the current layout, or an empty form when it is not one. */
export function initialServiceDataV3(data: unknown): ServiceDataV3 {
  const parsed = serviceDataV3Schema.safeParse(data);
  return parsed.success ? parsed.data : emptyServiceDataV3();
}

/**
 * Checks a current-layout form with the domain's rules: the shape
 * (`serviceDataV3Schema`) and the sections its category shows (`serviceDataV3Problems`, the same
 * rule as `isServiceDataValid`). Returns the sections to highlight.
 */
export function serviceDataErrors(
  data: ServiceDataV3,
  productCategoryId: number,
): ServiceDataSection[] {
  const parsed = serviceDataV3Schema.safeParse(data);
  if (!parsed.success) return serviceDataSections(productCategoryId);
  return serviceDataV3Problems(parsed.data, productCategoryId);
}

const PURPOSE_KEYS = Object.entries(TREATMENT_PURPOSES) as [
  keyof typeof TREATMENT_PURPOSES,
  number,
][];

function YesNo(props: {
  label: string;
  value: boolean | null;
  onChange: (value: boolean) => void;
  error?: string;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={props.label}
      value={props.value === null ? '' : props.value ? 'yes' : 'no'}
      onChange={(value) => !props.readOnly && props.onChange(value === 'yes')}
      error={props.error}
      withAsterisk
    >
      <Group mt={6}>
        <Radio value="yes" label={t('cases:serviceData.yes')} disabled={props.readOnly} />
        <Radio value="no" label={t('cases:serviceData.no')} disabled={props.readOnly} />
      </Group>
    </Radio.Group>
  );
}

/**
 * Service data, current layout (version 3). Only category 3 shows jaw, provisional,
 * implant system and teeth to extract (`serviceDataSections`). Read only outside broad 'new'.
 */
export function ServiceDataForm(props: {
  productCategoryId: number;
  data: unknown;
  readOnly: boolean;
  saving?: boolean;
  /** A per-tooth service: the chart asks for as many teeth as it counts. */
  perTooth?: { quantity: number } | undefined;
  /** The previous service's data and name: offers to copy it into this form. */
  copyFrom?: { name: string; data: unknown } | undefined;
  /** Told whenever the form starts or stops holding unsaved changes. */
  onDirtyChange?: ((dirty: boolean) => void) | undefined;
  onSave: (data: ServiceDataV3) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const kits = useKits();
  const [saved, setSaved] = useState<ServiceDataV3>(() => initialServiceDataV3(props.data));
  const [data, setData] = useState<ServiceDataV3>(saved);
  const dirty = useMemo(() => JSON.stringify(data) !== JSON.stringify(saved), [data, saved]);
  const { onDirtyChange } = props;
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  // An unmounted form holds nothing unsaved any more.
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const sections = serviceDataSections(props.productCategoryId);
  const shows = (section: ServiceDataSection) => sections.includes(section);
  const problems = useMemo(
    () => serviceDataErrors(data, props.productCategoryId),
    [data, props.productCategoryId],
  );
  const errorOf = (section: ServiceDataSection) =>
    showErrors && problems.includes(section)
      ? section === 'terms'
        ? translateErrorKey('validation.termsRequired')
        : translateErrorKey('validation.required')
      : undefined;
  const set = <K extends keyof ServiceDataV3>(key: K, value: ServiceDataV3[K]) =>
    setData((current) => ({ ...current, [key]: value }));
  const teethProblem = props.perTooth
    ? teethCountProblem(data.teeth, props.perTooth.quantity)
    : null;
  const teethError =
    showErrors && teethProblem
      ? t(`cases:serviceData.${teethProblem === 'missing' ? 'teethMissing' : 'teethTooMany'}`, {
          n: props.perTooth?.quantity ?? 0,
        })
      : undefined;
  const copyPrevious = () => {
    if (!props.copyFrom) return;
    // Everything but the teeth: each service names its own elements.
    setData({ ...initialServiceDataV3(props.copyFrom.data), teeth: data.teeth ?? [] });
    showSuccess(t('cases:serviceData.copied', { name: props.copyFrom.name }));
  };

  const kitList = Array.isArray(kits.data?.kitManufacturers) ? kits.data.kitManufacturers : [];
  const purposeTexts = Array.isArray(kits.data?.treatmentPurposes)
    ? kits.data.treatmentPurposes
    : [];
  // A name the admin set in the reader's language replaces the built-in label.
  const purposeLabel = (key: keyof typeof TREATMENT_PURPOSES, id: number) =>
    treatmentPurposeTextFor(purposeTexts, id, currentLanguage()) ||
    t(`domain:treatmentPurposes.${key}`);
  const manufacturers = kitList.map((kit) => kit.manufactureName);
  const systems =
    kitList.find((kit) => kit.manufactureName === data.implantSystem.manufactureName)?.systems ??
    [];

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setShowErrors(true);
    setServerErrors([]);
    // The shape must hold; an incomplete form may still be saved as work in progress (the case
    // check and the submit button wait for completeness), with the missing sections highlighted.
    if (!serviceDataV3Schema.safeParse(data).success) return;
    try {
      await props.onSave(data);
      setSaved(data);
      showSuccess(
        problems.length > 0 || teethProblem
          ? t('cases:serviceData.savedIncomplete')
          : t('cases:serviceData.saved'),
      );
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setServerErrors(Object.values(error.fields));
      } else {
        showError(error);
      }
    }
  };

  const readOnly = props.readOnly;
  return (
    // save reports its own failures (field errors or a notification); nothing to await here.
    <form onSubmit={(event) => void save(event)} noValidate>
      <Stack gap="md">
        {props.copyFrom && !readOnly && (
          <Group justify="flex-end">
            <Button variant="light" size="xs" onClick={copyPrevious} data-testid="copy-previous">
              {t('cases:serviceData.copyPrevious')}
            </Button>
          </Group>
        )}
        {props.perTooth && (
          <div>
            <Text size="sm" fw={500}>
              {t('cases:serviceData.teeth')}{' '}
              <Text span c="red">
                *
              </Text>
            </Text>
            <Group justify="space-between" gap="xs" mb={4}>
              <Text size="xs" c="dimmed">
                {t('cases:serviceData.teethHint', { n: props.perTooth.quantity })}
              </Text>
              <Text size="xs" aria-live="polite" data-testid="teeth-count">
                {t('cases:serviceData.teethChosen', {
                  chosen: data.teeth?.length ?? 0,
                  n: props.perTooth.quantity,
                })}
              </Text>
            </Group>
            <ToothChart
              value={data.teeth ?? []}
              onChange={(teeth) => set('teeth', teeth)}
              readOnly={readOnly}
              error={teethError}
            />
          </div>
        )}
        {shows('jaw') && (
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('serviceDataSections.jaw', { ns: 'domain' })}{' '}
              <Text span c="red">
                *
              </Text>
            </Text>
            <SegmentedControl
              fullWidth
              data={JAWS.map((jaw) => ({ value: jaw, label: t(`domain:jaws.${jaw}`) }))}
              value={data.jaw ?? ''}
              onChange={(value) => set('jaw', value as ServiceDataV3['jaw'])}
              readOnly={readOnly}
              aria-label={t('serviceDataSections.jaw', { ns: 'domain' })}
            />
            {errorOf('jaw') && (
              <Text size="xs" c="red" mt={4}>
                {errorOf('jaw')}
              </Text>
            )}
          </div>
        )}
        {shows('implantSystem') && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('cases:serviceData.manufacturer')}
              data={manufacturers}
              value={data.implantSystem.manufactureName || null}
              onChange={(value) =>
                set('implantSystem', { manufactureName: value ?? '', systemName: '' })
              }
              searchable
              withAsterisk
              readOnly={readOnly}
              error={errorOf('implantSystem')}
            />
            <Select
              label={t('cases:serviceData.system')}
              data={systems}
              value={data.implantSystem.systemName || null}
              onChange={(value) =>
                set('implantSystem', { ...data.implantSystem, systemName: value ?? '' })
              }
              searchable
              withAsterisk
              readOnly={readOnly}
              disabled={!data.implantSystem.manufactureName}
              error={errorOf('implantSystem')}
            />
          </SimpleGrid>
        )}
        {shows('provision') && (
          <YesNo
            label={t('serviceDataSections.provision', { ns: 'domain' })}
            value={data.provision}
            onChange={(value) => set('provision', value)}
            error={errorOf('provision')}
            readOnly={readOnly}
          />
        )}
        {shows('extractTeeth') && (
          <YesNo
            label={t('serviceDataSections.extractTeeth', { ns: 'domain' })}
            value={data.extractTeeth}
            onChange={(value) => set('extractTeeth', value)}
            error={errorOf('extractTeeth')}
            readOnly={readOnly}
          />
        )}
        <YesNo
          label={t('serviceDataSections.hasOrtho', { ns: 'domain' })}
          value={data.hasOrtho}
          onChange={(value) => set('hasOrtho', value)}
          error={errorOf('hasOrtho')}
          readOnly={readOnly}
        />
        <YesNo
          label={t('serviceDataSections.plasticGum', { ns: 'domain' })}
          value={data.plasticGum}
          onChange={(value) => set('plasticGum', value)}
          error={errorOf('plasticGum')}
          readOnly={readOnly}
        />
        <Group align="flex-end">
          <Checkbox
            label={t('serviceDataSections.increaseDVO', { ns: 'domain' })}
            checked={data.increaseDVO.checked}
            onChange={(event) =>
              !readOnly &&
              set('increaseDVO', {
                checked: event.currentTarget.checked,
                howMuch: event.currentTarget.checked ? data.increaseDVO.howMuch : null,
              })
            }
          />
          {data.increaseDVO.checked && (
            <NumberInput
              label={t('cases:serviceData.howMuch')}
              value={data.increaseDVO.howMuch ?? ''}
              onChange={(value) =>
                set('increaseDVO', {
                  checked: true,
                  howMuch: typeof value === 'number' ? value : null,
                })
              }
              min={0}
              max={100}
              decimalScale={1}
              w={140}
              readOnly={readOnly}
              error={errorOf('increaseDVO')}
            />
          )}
        </Group>
        <Select
          label={t('serviceDataSections.treatmentPurpose', { ns: 'domain' })}
          data={PURPOSE_KEYS.map(([key, id]) => ({
            value: String(id),
            label: purposeLabel(key, id),
          }))}
          value={
            data.treatmentPurpose.purpose === null ? null : String(data.treatmentPurpose.purpose)
          }
          onChange={(value) => set('treatmentPurpose', { purpose: value ? Number(value) : null })}
          withAsterisk
          readOnly={readOnly}
          error={errorOf('treatmentPurpose')}
        />
        <Textarea
          label={t('serviceDataSections.extra', { ns: 'domain' })}
          value={data.extra}
          onChange={(event) => set('extra', event.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={2000}
          withAsterisk
          readOnly={readOnly}
          error={errorOf('extra')}
        />
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {t('cases:serviceData.termsText')}
          </Text>
          <Checkbox
            label={t('cases:serviceData.acceptTerms')}
            checked={data.terms.checked}
            onChange={(event) =>
              !readOnly && set('terms', { checked: event.currentTarget.checked })
            }
            error={errorOf('terms')}
          />
        </Stack>
        {serverErrors.length > 0 && (
          <Alert color="red" title={t('cases:serviceData.serverErrors')}>
            {serverErrors.join(' · ')}
          </Alert>
        )}
        {!readOnly && (
          <Group justify="flex-end">
            <Button type="submit" loading={props.saving}>
              {t('cases:serviceData.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
