import { Fragment } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  TREATMENT_PURPOSES,
  isOldServiceDataLayout,
  keyOfId,
  serviceDataSections,
  serviceDataV3Schema,
  type CaseDetail,
  type CaseServiceDetail,
  type ServiceDataSection,
} from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import { DispatchStatus, addressLine, shippingOptionName } from './delivery-status';
import { formatDay } from './format';
import './production-sheet.css';

/** Sections the sheet's columns already show (or that say nothing about what to make). */
const IN_COLUMNS: readonly ServiceDataSection[] = ['jaw', 'implantSystem', 'terms'];

/**
 * The answers of a service's data that matter to whoever makes it, as "label: value" lines: the
 * sections its category shows (current layout), or the old layout's notes.
 */
export function serviceDataLines(service: CaseServiceDetail, t: TFunction): string[] {
  const yesNo = (value: boolean | null | undefined) =>
    value === null || value === undefined
      ? '—'
      : t(value ? 'cases:serviceData.yes' : 'cases:serviceData.no');
  const label = (section: ServiceDataSection) => t(`domain:serviceDataSections.${section}`);
  if (isOldServiceDataLayout(service.dataVersion)) {
    const data = (service.data ?? {}) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
    return [
      [label('provision'), text(data.provisionObs)],
      [label('extractTeeth'), text(data.extractInfo)],
      [label('extra'), text(data.extraInfo)],
    ]
      .filter(([, value]) => value)
      .map(([name, value]) => `${name}: ${value}`);
  }
  const parsed = serviceDataV3Schema.safeParse(service.data);
  if (!parsed.success) return [];
  const data = parsed.data;
  const purpose = keyOfId(TREATMENT_PURPOSES, data.treatmentPurpose.purpose ?? -1);
  const values: Partial<Record<ServiceDataSection, string>> = {
    provision: yesNo(data.provision),
    extractTeeth: yesNo(data.extractTeeth),
    hasOrtho: yesNo(data.hasOrtho),
    plasticGum: yesNo(data.plasticGum),
    increaseDVO: data.increaseDVO.checked
      ? t('cases:production.millimetres', { value: data.increaseDVO.howMuch ?? 0 })
      : yesNo(false),
    treatmentPurpose: purpose ? t(`domain:treatmentPurposes.${purpose}`) : '—',
    extra: data.extra.trim() || '—',
  };
  return serviceDataSections(service.productCategoryId)
    .filter((section) => !IN_COLUMNS.includes(section))
    .map((section) => `${label(section)}: ${values[section] ?? '—'}`);
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </div>
  );
}

/**
 * The production sheet (planners, printers, staff): the patient, each service with its data and
 * what to make (elements, implant system, sleeves, kit) and the delivery. It prints alone on one
 * A4 page (production-sheet.css); the Print button is left out of the print.
 */
export function ProductionSheet({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const { delivery } = detail;
  const patient = `${detail.patient.fname} ${detail.patient.lname}`.trim();
  const elements = (service: CaseServiceDetail) => {
    const made = service.manufacture;
    if (!made) return '—';
    const jaw = made.jaw ? t(`domain:jaws.${made.jaw}`) : '';
    return [jaw, made.teeth.join(', ')].filter(Boolean).join(': ') || '—';
  };
  const sleeves = (service: CaseServiceDetail) => {
    const made = service.manufacture;
    if (!made?.sleeveManufacturer) return '—';
    return made.sleeveQuantity > 0
      ? t('cases:production.sleevesValue', {
          n: made.sleeveQuantity,
          manufacturer: made.sleeveManufacturer,
        })
      : made.sleeveManufacturer;
  };
  const yesNo = (value: boolean) => t(value ? 'cases:serviceData.yes' : 'cases:serviceData.no');

  return (
    <Paper
      component="section"
      className="production-sheet"
      withBorder
      radius="md"
      p="md"
      aria-label={t('cases:production.title')}
      data-testid="production-sheet"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Title order={2} size="h3">
              {t('cases:production.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('cases:view.caseNumber', { id: detail.id })} ·{' '}
              {t(`domain:caseStatuses.${detail.caseStatus}`)}
            </Text>
          </div>
          <Button
            className="no-print"
            variant="light"
            leftSection={<IconPrinter size={16} />}
            onClick={() => window.print()}
          >
            {t('cases:production.print')}
          </Button>
        </Group>

        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <Field label={t('cases:production.patient')} value={patient} />
          <Field
            label={t('cases:production.birthDate')}
            value={formatDay(detail.patient.birthDate)}
          />
          <Field label={t('cases:production.orderedBy')} value={detail.owner.displayName} />
          <Field label={t('cases:production.deadline')} value={formatDate(detail.deadlineAt)} />
        </SimpleGrid>

        <Title order={3} size="h5">
          {t('cases:production.services')}
        </Title>
        <Table.ScrollContainer minWidth={560}>
          <Table withTableBorder withColumnBorders verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('cases:production.service')}</Table.Th>
                <Table.Th>{t('cases:production.quantity')}</Table.Th>
                <Table.Th>{t('cases:production.elements')}</Table.Th>
                <Table.Th>{t('cases:production.implantSystem')}</Table.Th>
                <Table.Th>{t('cases:production.sleeves')}</Table.Th>
                <Table.Th>{t('cases:production.kit')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.services.map((service) => {
                const lines = serviceDataLines(service, t);
                return (
                  <Fragment key={service.id}>
                    <Table.Tr data-testid={`sheet-service-${service.id}`}>
                      <Table.Td fw={600}>{service.productName}</Table.Td>
                      <Table.Td>{service.quantity}</Table.Td>
                      <Table.Td>{elements(service)}</Table.Td>
                      <Table.Td>{service.manufacture?.implantSystem || '—'}</Table.Td>
                      <Table.Td data-testid={`sheet-sleeves-${service.id}`}>
                        {sleeves(service)}
                      </Table.Td>
                      <Table.Td>
                        {service.manufacture ? yesNo(service.manufacture.kit) : '—'}
                      </Table.Td>
                    </Table.Tr>
                    {lines.length > 0 && (
                      <Table.Tr>
                        <Table.Td colSpan={6}>
                          <Text size="xs">{lines.join(' · ')}</Text>
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        <Title order={3} size="h5">
          {t('cases:production.delivery')}
        </Title>
        {delivery ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <Field
              label={t('cases:production.shipping')}
              value={`${shippingOptionName(t, delivery.shipmentType)} · ${t('cases:delivery.days', {
                count: delivery.days,
              })}`}
            />
            <Field
              label={t('cases:general.address')}
              value={
                delivery.address ? addressLine(delivery.address) : t('cases:production.pickupAtLab')
              }
            />
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            {t('cases:production.noDelivery')}
          </Text>
        )}
        <DispatchStatus detail={detail} />

        {detail.observation.trim() && (
          <Field label={t('cases:production.observation')} value={detail.observation} />
        )}
      </Stack>
    </Paper>
  );
}
