import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  hasPartnerRole,
  isSupervisor,
  sessionRoles,
  type CaseDetail,
  type CaseMember,
} from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useProfile } from '../../profile/api/get-profile';
import { usePlanners } from '../api/list-planners';
import { useAddCaseUser } from '../api/add-case-user';
import { useRemoveCaseUser } from '../api/remove-case-user';
import { useSetPlanner } from '../api/set-planner';
import { MemberAssignment } from './member-assignment';
import { PartnerAssignment } from './partner-assignment';

function PlannerAssignment({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const planners = usePlanners(true);
  const setPlanner = useSetPlanner(detail.id);
  const [plannerId, setPlannerId] = useState<string | null>(null);
  const [serviceIds, setServiceIds] = useState<string[]>([]);

  const assign = () => {
    if (!plannerId) return;
    setPlanner.mutate(
      {
        plannerId: Number(plannerId),
        ...(serviceIds.length ? { serviceIds: serviceIds.map(Number) } : {}),
      },
      {
        onSuccess: () => {
          showSuccess(t('cases:users.plannerAssigned'));
          setPlannerId(null);
          setServiceIds([]);
        },
        onError: showError,
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('cases:users.assignPlanner')}
        </Title>
        <Select
          label={t('cases:users.planner')}
          placeholder={planners.isLoading ? t('cases:list.loading') : undefined}
          data={(planners.data ?? []).map((p) => ({ value: String(p.id), label: p.displayName }))}
          value={plannerId}
          onChange={setPlannerId}
          searchable
          error={planners.isError ? t('cases:users.plannersError') : undefined}
        />
        {detail.services.length > 1 && (
          <MultiSelect
            label={t('cases:users.services')}
            description={t('cases:users.servicesHint')}
            data={detail.services.map((s) => ({ value: String(s.id), label: s.productName }))}
            value={serviceIds}
            onChange={setServiceIds}
          />
        )}
        <Group justify="flex-end">
          <Button onClick={assign} disabled={!plannerId} loading={setPlanner.isPending}>
            {t('cases:users.assign')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Users tab: the case members. A supervisor adds any user, switches whether each member is
 * notified, removes members and assigns the planner; the owning clinic (`can` holds 'addPartner')
 * does the same for its linked partners. Removing asks first.
 */
export function UsersTab({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const supervisor =
    isSupervisor(sessionRoles(profile?.roles ?? [])) && !detail.readOnly && !detail.caseArchived;
  const clinicManagesPartners = detail.can.includes('addPartner');
  const mayRemove = (roles: readonly string[]) =>
    supervisor || (clinicManagesPartners && hasPartnerRole(roles));
  const remove = useRemoveCaseUser(detail.id);
  const notifications = useAddCaseUser(detail.id);
  const switchNotifications = (member: CaseMember, notify: boolean) =>
    notifications.mutate(
      { userId: member.userId, triggerNotification: notify },
      {
        onSuccess: () =>
          showSuccess(
            t(notify ? 'cases:users.notifyOn' : 'cases:users.notifyOff', {
              name: member.displayName,
            }),
          ),
        onError: showError,
      },
    );
  const [removing, setRemoving] = useState<{ userId: number; displayName: string } | null>(null);

  return (
    <Stack>
      <Card withBorder radius="md" padding="md">
        <Title order={2} size="h4" mb="sm">
          {t('cases:users.members')}
        </Title>
        <Text size="sm" mb="xs">
          {t('cases:users.owner', { name: detail.owner.displayName })}
        </Text>
        {detail.users.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('cases:users.none')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing="xs">
              <Table.Tbody>
                {detail.users.map((member) => (
                  <Table.Tr key={member.userId}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {member.displayName}
                      </Text>
                      <Group gap={4} mt={2}>
                        {member.roles
                          .filter((role) => role !== 'public')
                          .map((role) => (
                            <Badge key={role} size="xs" variant="light">
                              {t(`roles.${role}`, { defaultValue: role })}
                            </Badge>
                          ))}
                      </Group>
                    </Table.Td>
                    <Table.Td w={1}>
                      {mayRemove(member.roles) && (
                        <Switch
                          size="sm"
                          label={t('cases:users.notifyShort')}
                          aria-label={t('cases:users.notifyNamed', { name: member.displayName })}
                          checked={member.triggerNotification}
                          disabled={notifications.isPending}
                          onChange={(event) =>
                            switchNotifications(member, event.currentTarget.checked)
                          }
                          styles={{ label: { whiteSpace: 'nowrap' } }}
                        />
                      )}
                    </Table.Td>
                    <Table.Td w={40}>
                      {mayRemove(member.roles) && (
                        <Tooltip label={t('cases:users.remove')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('cases:users.removeNamed', { name: member.displayName })}
                            onClick={() => setRemoving(member)}
                          >
                            <IconUserMinus size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {clinicManagesPartners && <PartnerAssignment detail={detail} />}
      {supervisor && <MemberAssignment detail={detail} />}
      {supervisor && <PlannerAssignment detail={detail} />}
      <ConfirmDialog
        opened={removing !== null}
        title={t('cases:users.remove')}
        message={t('cases:users.removeConfirm', { name: removing?.displayName ?? '' })}
        confirmLabel={t('cases:users.remove')}
        danger
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.userId, {
            onSuccess: () => {
              showSuccess(t('cases:users.removed'));
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
    </Stack>
  );
}
