import {
  ActionIcon,
  Badge,
  Group,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { couponDisplayState, type AdminCoupon } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';
import type { BindingOption } from '../api/list-binding-options';
import { COUPON_TYPE_KEYS, formatCouponValue } from './coupon-display';

/** Expired wins over the active switch: one badge, never 'active' and 'expired' together. */
const STATE_COLORS = { active: 'green', inactive: 'gray', expired: 'orange' } as const;

const labelOf = (options: BindingOption[] | undefined, id: number) =>
  options?.find((option) => option.value === String(id))?.label ?? `#${id}`;

/** The coupons of one page; scrolls sideways on a phone rather than squeezing the columns. */
export function CouponTable(props: {
  coupons: AdminCoupon[];
  products: BindingOption[] | undefined;
  categories: BindingOption[] | undefined;
  onEdit: (coupon: AdminCoupon) => void;
  onDelete: (coupon: AdminCoupon) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin:coupons.columns.code')}</Table.Th>
            <Table.Th>{t('admin:coupons.columns.type')}</Table.Th>
            <Table.Th>{t('admin:coupons.columns.value')}</Table.Th>
            <Table.Th>{t('admin:coupons.columns.bindings')}</Table.Th>
            <Table.Th>{t('admin:coupons.columns.usage')}</Table.Th>
            <Table.Th>{t('admin:coupons.columns.expireAt')}</Table.Th>
            <Table.Th>{t('admin:coupons.columns.status')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('admin:coupons.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.coupons.map((coupon) => {
            const state = couponDisplayState(coupon);
            const expired = state === 'expired';
            const bindings = [
              coupon.bind2User !== null &&
                t('admin:coupons.bindings.user', { id: coupon.bind2User }),
              coupon.bind2Product !== null &&
                t('admin:coupons.bindings.product', {
                  name: labelOf(props.products, coupon.bind2Product),
                }),
              coupon.bind2Category !== null &&
                t('admin:coupons.bindings.category', {
                  name: labelOf(props.categories, coupon.bind2Category),
                }),
              coupon.oncePerUser && t('admin:coupons.bindings.oncePerUser'),
              coupon.applyOnManufactureService && t('admin:coupons.bindings.manufacture'),
            ].filter((text): text is string => Boolean(text));
            return (
              <Table.Tr key={coupon.id}>
                <Table.Td>
                  <Text fw={600} ff="monospace" size="sm">
                    {coupon.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {t(`couponTypes.${COUPON_TYPE_KEYS[coupon.coupomType]}`, { ns: 'domain' })}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCouponValue(coupon)}</Table.Td>
                <Table.Td>
                  {bindings.length ? (
                    <Stack gap={0}>
                      {bindings.map((text) => (
                        <Text key={text} size="xs">
                          {text}
                        </Text>
                      ))}
                    </Stack>
                  ) : (
                    <Text size="xs" c="dimmed">
                      {t('admin:coupons.bindings.none')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">
                    {t('admin:coupons.usage.used', {
                      used: coupon.used,
                      max: coupon.maxUsage ?? '∞',
                    })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('admin:coupons.usage.users', { count: coupon.usersCount })}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {coupon.expireAt ? (
                    <Text size="sm" c={expired ? 'red' : undefined}>
                      {formatDate(coupon.expireAt)}
                    </Text>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('admin:coupons.noExpiry')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge
                    color={STATE_COLORS[state]}
                    variant="light"
                    data-testid={`coupon-state-${coupon.id}`}
                  >
                    {t(`admin:coupons.status.${state}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label={t('admin:coupons.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('admin:coupons.editNamed', { code: coupon.name })}
                        onClick={() => props.onEdit(coupon)}
                      >
                        <IconPencil size={18} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('admin:coupons.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('admin:coupons.deleteNamed', { code: coupon.name })}
                        onClick={() => props.onDelete(coupon)}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
