import { lazy, Suspense, useState } from 'react';
import {
  Accordion,
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconShoppingCartPlus, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  QTD_OPTIONS,
  SERVICE_DATA_VERSION,
  isBroadNew,
  isCaseUpgradeStatus,
  isOldServiceDataLayout,
  type CaseDetail,
  type CaseServiceDetail,
  type ServicePaymentState,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useAddService } from '../api/add-service';
import { useProducts } from '../api/list-products';
import { useRemoveService } from '../api/remove-service';
import { useSetServiceData } from '../api/set-service-data';
import type { ProductSelection } from './product-picker';
import { ServiceDataV1View } from './service-data-v1-view';

// The catalogue picker shows only in the "add services" dialog: loaded when that opens.
const ProductPicker = lazy(() =>
  import('./product-picker').then((module) => ({ default: module.ProductPicker })),
);
// The data form (number inputs, the tooth chart) is the bulk of the General tab: loaded apart, so
// the case page's first paint stays within its JavaScript budget (docs/performance.md, "Browser").
const ServiceDataForm = lazy(() =>
  import('./service-data-form').then((module) => ({ default: module.ServiceDataForm })),
);

/** Whether this caller may edit the case's service data now (broad 'new', not read only). */
export const mayEditServiceData = (detail: CaseDetail) =>
  isBroadNew(detail.caseStatus) &&
  !detail.readOnly &&
  !detail.caseArchived &&
  detail.can.includes('edit');

const PAYMENT_COLORS: Record<ServicePaymentState, string> = {
  paid: 'green',
  awaitingPayment: 'yellow',
  deferred: 'grape',
  unpaid: 'gray',
};

/**
 * How the service stands towards payment. Awaiting payment once the case is past checkout is an
 * upgrade: the service is not planned, approved or printed until its payment is confirmed.
 */
function PaymentBadge({ detail, service }: { detail: CaseDetail; service: CaseServiceDetail }) {
  const { t } = useTranslation();
  const upgrade = service.payment === 'awaitingPayment' && !isBroadNew(detail.caseStatus);
  return (
    <Badge
      size="sm"
      variant="outline"
      color={PAYMENT_COLORS[service.payment]}
      data-testid={`service-payment-${service.id}`}
      style={{ textTransform: 'none' }}
    >
      {t(`cases:services.payment.${upgrade ? 'awaitingUpgrade' : service.payment}`)}
    </Badge>
  );
}

function ServiceStatus({ detail, service }: { detail: CaseDetail; service: CaseServiceDetail }) {
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
      <PaymentBadge detail={detail} service={service} />
    </Group>
  );
}

/** One service's data form, in its layout. */
export function ServiceDataEditor({
  detail,
  service,
  copyFrom,
  onDirtyChange,
}: {
  detail: CaseDetail;
  service: CaseServiceDetail;
  /** The service before it in the case, to offer 'copy from the previous service'. */
  copyFrom?: CaseServiceDetail | undefined;
  onDirtyChange?: ((dirty: boolean) => void) | undefined;
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
    <Suspense fallback={<Skeleton h={160} />}>
      <ServiceDataForm
        // Re-read when this service's saved data changes, not when another service's does: a save
        // of one form must not drop the unsaved changes of the others.
        key={`${service.id}-${service.dataVersion}-${JSON.stringify(service.data)}`}
        productCategoryId={service.productCategoryId}
        data={service.data}
        readOnly={!editable}
        saving={setData.isPending}
        perTooth={
          service.qtdOption === QTD_OPTIONS.perElement ? { quantity: service.quantity } : undefined
        }
        copyFrom={
          copyFrom && !isOldServiceDataLayout(copyFrom.dataVersion) && copyFrom.data
            ? { name: copyFrom.productName, data: copyFrom.data }
            : undefined
        }
        onDirtyChange={onDirtyChange}
        onSave={(data) =>
          setData.mutateAsync({
            serviceId: service.id,
            body: { dataVersion: SERVICE_DATA_VERSION, data },
          })
        }
      />
    </Suspense>
  );
}

/**
 * The case's services with their data forms and payment states. Services are added here while the
 * case has no order yet (`addService`); once it has one, more come only through an order for the
 * case in the shop (`order`), which pays them with a transaction of their own. A service is
 * removed while it is in no payment.
 */
export function ServicesSection({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const remove = useRemoveService(detail.id);
  const add = useAddService(detail.id);
  const mayAdd = detail.can.includes('addService');
  const mayOrder = !mayAdd && detail.can.includes('order');
  const mayRemove = mayEditServiceData(detail);
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
        {mayOrder && (
          <Button
            size="xs"
            variant="light"
            component={Link}
            to={`/shop?caseId=${detail.id}`}
            leftSection={<IconShoppingCartPlus size={14} />}
          >
            {t('cases:services.orderMore')}
          </Button>
        )}
      </Group>
      {mayOrder && isCaseUpgradeStatus(detail.caseStatus) && (
        <Text size="sm" c="dimmed">
          {t('cases:services.orderMoreUpgrade')}
        </Text>
      )}
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
                      <ServiceStatus detail={detail} service={service} />
                      {service.planner && (
                        <Text size="xs" c="dimmed">
                          {t('cases:services.planner', { name: service.planner.displayName })}
                        </Text>
                      )}
                    </Group>
                  </Stack>
                </Accordion.Control>
                {mayRemove && service.payment === 'unpaid' && (
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
          <Suspense fallback={<Skeleton h={120} />}>
            <ProductPicker
              products={products.data}
              loading={products.isLoading}
              currency={detail.caseCurrency}
              value={selection}
              onChange={setSelection}
              exclude={detail.services.map((s) => s.productId)}
            />
          </Suspense>
          <Group justify="flex-end">
            <Button
              // addChosen reports its own failure in a notification.
              onClick={() => void addChosen()}
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
