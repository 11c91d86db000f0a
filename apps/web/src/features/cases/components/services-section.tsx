import { useState } from 'react';
import {
  Accordion,
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  SERVICE_DATA_VERSION,
  isBroadNew,
  isOldServiceDataLayout,
  type CaseDetail,
  type CaseServiceDetail,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useAddService } from '../api/add-service';
import { useProducts } from '../api/list-products';
import { useRemoveService } from '../api/remove-service';
import { useSetServiceData } from '../api/set-service-data';
import { ConfirmDialog } from './confirm-dialog';
import { ProductPicker, type ProductSelection } from './product-picker';
import { ServiceDataForm } from './service-data-form';
import { ServiceDataV1View } from './service-data-v1-view';

/** Whether this caller may edit the case's service data now (broad 'new', not read only). */
export const mayEditServiceData = (detail: CaseDetail) =>
  isBroadNew(detail.caseStatus) &&
  !detail.readOnly &&
  !detail.caseArchived &&
  detail.can.includes('edit');

function ServiceStatus({ service }: { service: CaseServiceDetail }) {
  const { t } = useTranslation();
  return (
    <Group gap={6}>
      <Badge size="sm" variant="light" color={service.dataValid ? 'green' : 'orange'}>
        {service.dataValid ? t('cases:services.dataComplete') : t('cases:services.dataIncomplete')}
      </Badge>
      {service.approveAt ? (
        <Badge size="sm" variant="light" color="green">
          {t('cases:services.approved')}
        </Badge>
      ) : service.approveRequestAt ? (
        <Badge size="sm" variant="light" color="yellow">
          {t('cases:services.pendingApproval')}
        </Badge>
      ) : null}
      {service.paid && (
        <Badge size="sm" variant="outline" color="gray">
          {t('cases:services.paid')}
        </Badge>
      )}
    </Group>
  );
}

/** One service's data form, in its layout. */
export function ServiceDataEditor({
  detail,
  service,
}: {
  detail: CaseDetail;
  service: CaseServiceDetail;
}) {
  const setData = useSetServiceData(detail.id);
  const editable = mayEditServiceData(detail);
  if (isOldServiceDataLayout(service.dataVersion)) {
    return (
      <ServiceDataV1View
        data={service.data}
        readOnly={!editable}
        saving={setData.isPending}
        onAcceptTerms={(data) =>
          setData.mutateAsync({
            serviceId: service.id,
            body: { dataVersion: service.dataVersion, data },
          })
        }
      />
    );
  }
  return (
    <ServiceDataForm
      key={`${service.id}-${detail.modifiedAt}`}
      productCategoryId={service.productCategoryId}
      data={service.data}
      readOnly={!editable}
      saving={setData.isPending}
      onSave={(data) =>
        setData.mutateAsync({
          serviceId: service.id,
          body: { dataVersion: SERVICE_DATA_VERSION, data },
        })
      }
    />
  );
}

/** The case's services with their data forms; add and remove while the owner may. */
export function ServicesSection({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const remove = useRemoveService(detail.id);
  const add = useAddService(detail.id);
  const mayAdd = detail.can.includes('addService');
  const [removing, setRemoving] = useState<CaseServiceDetail | null>(null);
  const [adding, setAdding] = useState(false);
  const [selection, setSelection] = useState<ProductSelection>({});
  const products = useProducts();

  const addChosen = async () => {
    try {
      for (const [productId, quantity] of Object.entries(selection)) {
        await add.mutateAsync({ productId: Number(productId), quantity });
      }
      showSuccess(t('cases:services.added'));
      setSelection({});
      setAdding(false);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={600}>{t('cases:services.title')}</Text>
        {mayAdd && (
          <Button size="xs" variant="light" onClick={() => setAdding(true)}>
            {t('cases:services.add')}
          </Button>
        )}
      </Group>
      {detail.services.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('cases:services.none')}
        </Text>
      ) : (
        <Accordion
          variant="separated"
          multiple
          defaultValue={detail.services.filter((s) => !s.dataValid).map((s) => String(s.id))}
        >
          {detail.services.map((service) => (
            <Accordion.Item key={service.id} value={String(service.id)}>
              <Group wrap="nowrap" gap={0}>
                <Accordion.Control>
                  <Stack gap={2}>
                    <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {service.productName}
                      {service.quantity > 1 ? ` × ${service.quantity}` : ''}
                    </Text>
                    <Group gap="xs">
                      <ServiceStatus service={service} />
                      {service.planner && (
                        <Text size="xs" c="dimmed">
                          {t('cases:services.planner', { name: service.planner.displayName })}
                        </Text>
                      )}
                    </Group>
                  </Stack>
                </Accordion.Control>
                {mayAdd && !service.paid && (
                  <Tooltip label={t('cases:services.remove')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mx="xs"
                      aria-label={t('cases:services.removeNamed', { name: service.productName })}
                      onClick={() => setRemoving(service)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
              <Accordion.Panel>
                <ServiceDataEditor detail={detail} service={service} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('cases:services.remove')}
        message={t('cases:services.removeConfirm', { name: removing?.productName ?? '' })}
        confirmLabel={t('cases:services.remove')}
        danger
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              showSuccess(t('cases:services.removed'));
              setRemoving(null);
            },
            onError: (error) => {
              showError(error);
              setRemoving(null);
            },
          })
        }
        onClose={() => setRemoving(null)}
      />
      <Modal
        opened={adding}
        onClose={() => setAdding(false)}
        title={t('cases:services.add')}
        size="lg"
      >
        <Stack>
          <ProductPicker
            products={products.data}
            loading={products.isLoading}
            currency={detail.caseCurrency}
            value={selection}
            onChange={setSelection}
            exclude={detail.services.map((s) => s.productId)}
          />
          <Group justify="flex-end">
            <Button
              onClick={addChosen}
              loading={add.isPending}
              disabled={Object.keys(selection).length === 0}
            >
              {t('cases:services.addChosen')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
