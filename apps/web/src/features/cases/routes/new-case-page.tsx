import { useCallback, useEffect, useState } from 'react';
import { Navigate, useBlocker, useNavigate, useSearchParams } from 'react-router';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Stepper,
  Text,
  Title,
  useMatches,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  isDoctor,
  linePrice,
  profileCurrency,
  sessionRoles,
  type CaseDetail,
  type CaseServiceDetail,
  type Currency,
} from '@dentflow/domain';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useProfile } from '../../profile/api/get-profile';
import { useAddService } from '../api/add-service';
import { useCreateCase } from '../api/create-case';
import { useProfileMissingDialog } from '../../profile/components/profile-missing-dialog';
import { useCase } from '../api/get-case';
import { useProducts } from '../api/list-products';
import { CurrencyPicker } from '../components/currency-picker';
import {
  PatientFields,
  patientFormValues,
  toCasePatient,
  validatePatientForm,
  type PatientFormValues,
} from '../components/patient-fields';
import { ProductPicker, type ProductSelection } from '../components/product-picker';
import { ServiceDataEditor } from '../components/services-section';

/**
 * Step 1: the patient, the observation and the case currency (the profile's unless the user picks
 * the other); creates the case.
 */
function PatientStep({ onCreated }: { onCreated: (detail: CaseDetail) => void }) {
  const { t } = useTranslation();
  const create = useCreateCase();
  const profileMissing = useProfileMissingDialog();
  const { data: profile } = useProfile();
  const [chosenCurrency, setCurrency] = useState<Currency | null>(null);
  const caseCurrency = chosenCurrency ?? profileCurrency(profile?.dataInfo);
  const form = useForm<PatientFormValues>({
    initialValues: patientFormValues(),
    validate: validatePatientForm,
  });
  const submit = form.onSubmit((values) =>
    create.mutate(
      {
        patient: toCasePatient(values),
        ...(values.observation.trim() ? { observation: values.observation } : {}),
        caseCurrency,
      },
      {
        onSuccess: (detail) => {
          showSuccess(t('cases:intake.created'));
          onCreated(detail);
        },
        onError: (error) => {
          if (profileMissing.catchRefusal(error)) return;
          form.setErrors(serverFieldErrors(error, 'patient'));
          showError(error);
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      {profileMissing.dialog}
      <Stack>
        <PatientFields form={form} />
        <CurrencyPicker
          value={caseCurrency}
          onChange={setCurrency}
          description={t('cases:currency.hint')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t('cases:intake.createAndContinue')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Step 2: the catalogue's products in the case currency; adds the chosen ones as services. */
function ServicesStep({ detail, onDone }: { detail: CaseDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const products = useProducts();
  const add = useAddService(detail.id);
  const [selection, setSelection] = useState<ProductSelection>({});
  const chosen = Object.entries(selection);
  const total = chosen.reduce((sum, [productId, quantity]) => {
    const product = products.data?.find((p) => p.id === Number(productId));
    return product
      ? sum + linePrice(product.prices[detail.caseCurrency] ?? 0, product.qtdOption, quantity)
      : sum;
  }, 0);

  const next = async () => {
    try {
      for (const [productId, quantity] of chosen) {
        await add.mutateAsync({ productId: Number(productId), quantity });
      }
      setSelection({});
      onDone();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack>
      {products.isError && <Alert color="red">{t('cases:intake.productsError')}</Alert>}
      {detail.services.length > 0 && (
        <Group gap="xs">
          <Text size="sm">{t('cases:intake.alreadyAdded')}</Text>
          {detail.services.map((service) => (
            <Badge key={service.id} variant="light">
              {service.productName}
            </Badge>
          ))}
        </Group>
      )}
      <ProductPicker
        products={products.data}
        loading={products.isLoading}
        currency={detail.caseCurrency}
        value={selection}
        onChange={setSelection}
        exclude={detail.services.map((service) => service.productId)}
      />
      <Group justify="space-between">
        <Text fw={600} aria-live="polite">
          {t('cases:intake.total', { amount: formatMoney(total, detail.caseCurrency) })}
        </Text>
        <Button
          // next reports its own failure in a notification.
          onClick={() => void next()}
          loading={add.isPending}
          disabled={chosen.length === 0 && detail.services.length === 0}
        >
          {t('cases:intake.next')}
        </Button>
      </Group>
    </Stack>
  );
}

/** One service's data form in the intake, telling the step whether it holds unsaved changes. */
function ServiceDataCard({
  detail,
  service,
  previous,
  onDirty,
}: {
  detail: CaseDetail;
  service: CaseServiceDetail;
  previous: CaseServiceDetail | undefined;
  onDirty: (serviceId: number, dirty: boolean) => void;
}) {
  const { t } = useTranslation();
  const onDirtyChange = useCallback(
    (dirty: boolean) => onDirty(service.id, dirty),
    [onDirty, service.id],
  );
  return (
    <Card withBorder radius="md" padding="md" data-testid={`intake-service-${service.id}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            {service.productName}
            {service.quantity > 1 ? ` × ${service.quantity}` : ''}
          </Title>
          <Badge color={service.dataValid ? 'green' : 'orange'} variant="light">
            {service.dataValid
              ? t('cases:services.dataComplete')
              : t('cases:services.dataIncomplete')}
          </Badge>
        </Group>
        <ServiceDataEditor
          detail={detail}
          service={service}
          copyFrom={previous}
          onDirtyChange={onDirtyChange}
        />
      </Stack>
    </Card>
  );
}

/**
 * Step 3: each service's data form; ends on the case view. Leaving the step (back, finish, a
 * link, closing the tab) while a form holds unsaved changes asks first: nothing is dropped
 * silently.
 */
function DataStep({
  detail,
  onBack,
  onFinish,
}: {
  detail: CaseDetail;
  onBack: () => void;
  onFinish: () => void;
}) {
  const { t } = useTranslation();
  const incomplete = detail.services.filter((service) => !service.dataValid).length;
  const [dirtyIds, setDirtyIds] = useState<ReadonlySet<number>>(() => new Set());
  const markDirty = useCallback((serviceId: number, dirty: boolean) => {
    setDirtyIds((current) => {
      if (current.has(serviceId) === dirty) return current;
      const next = new Set(current);
      if (dirty) next.add(serviceId);
      else next.delete(serviceId);
      return next;
    });
  }, []);
  const unsaved = dirtyIds.size > 0;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  return (
    <Stack>
      {detail.services.map((service, index) => (
        <ServiceDataCard
          key={service.id}
          detail={detail}
          service={service}
          previous={index > 0 ? detail.services[index - 1] : undefined}
          onDirty={markDirty}
        />
      ))}
      {incomplete > 0 && (
        <Text size="sm" c="dimmed">
          {t('cases:intake.incompleteHint', { n: incomplete })}
        </Text>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          {t('cases:intake.back')}
        </Button>
        <Button onClick={onFinish}>{t('cases:intake.finish')}</Button>
      </Group>
      <ConfirmDialog
        opened={blocker.state === 'blocked'}
        title={t('cases:intake.unsavedTitle')}
        message={t('cases:intake.unsavedBody')}
        confirmLabel={t('cases:intake.unsavedLeave')}
        danger
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      />
    </Stack>
  );
}

/**
 * /cases/create — the guided intake: patient, then services, then each service's data, ending
 * on the case view. The case exists from step 1 on (kept in the URL, so a reload resumes).
 */
export function NewCasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const caseId = Math.max(0, Number(params.get('case')) || 0);
  const step = caseId ? Math.min(2, Math.max(1, Number(params.get('step')) || 1)) : 0;
  const query = useCase(caseId);
  const vertical = useMatches({ base: true, sm: false });
  const { data: profile } = useProfile();
  const goTo = (nextStep: number, id = caseId) =>
    setParams({ case: String(id), step: String(nextStep) }, { replace: true });

  // Only a clinic or a doctor opens cases (the server refuses the others too).
  if (profile && !isDoctor(sessionRoles(profile.roles))) {
    return <Navigate to="/error/not-authorized" replace />;
  }

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('cases:intake.title')}
      </Title>
      <Stepper
        active={step}
        size="sm"
        orientation={vertical ? 'vertical' : 'horizontal'}
        allowNextStepsSelect={false}
      >
        <Stepper.Step
          label={t('cases:intake.steps.patient')}
          description={vertical ? undefined : t('cases:intake.steps.patientHint')}
          allowStepSelect={false}
        >
          <PatientStep onCreated={(detail) => goTo(1, detail.id)} />
        </Stepper.Step>
        <Stepper.Step
          label={t('cases:intake.steps.services')}
          description={vertical ? undefined : t('cases:intake.steps.servicesHint')}
          allowStepSelect={step > 1}
        >
          {query.data ? (
            <ServicesStep detail={query.data} onDone={() => goTo(2)} />
          ) : (
            <Skeleton h={200} />
          )}
        </Stepper.Step>
        <Stepper.Step
          label={t('cases:intake.steps.data')}
          description={vertical ? undefined : t('cases:intake.steps.dataHint')}
          allowStepSelect={false}
        >
          {query.data ? (
            <DataStep
              detail={query.data}
              onBack={() => goTo(1)}
              onFinish={() => void navigate(`/case/${caseId}`)}
            />
          ) : (
            <Skeleton h={200} />
          )}
        </Stepper.Step>
      </Stepper>
      {query.isError && <Alert color="red">{t('cases:view.notFoundBody')}</Alert>}
    </Stack>
  );
}
