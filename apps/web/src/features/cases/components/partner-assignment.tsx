import { useState } from 'react';
import { Button, Card, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CaseDetail } from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { usePartnerLinks } from '../../partners/api/list-partners';
import { useAddCaseUser } from '../api/add-case-user';

/**
 * The owning clinic adds one of its linked partners to the case (shown when the
 * case's `can` holds 'addPartner'); partners already on the case are not offered again.
 */
export function PartnerAssignment({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const links = usePartnerLinks();
  const add = useAddCaseUser(detail.id);
  const [partnerId, setPartnerId] = useState<string | null>(null);
  const [notify, setNotify] = useState(true);

  const memberIds = new Set(detail.users.map((member) => member.userId));
  const available = (links.data ?? [])
    .map((link) => link.partner)
    .filter((partner) => !memberIds.has(partner.id));

  const submit = () => {
    if (!partnerId) return;
    add.mutate(
      { userId: Number(partnerId), triggerNotification: notify },
      {
        onSuccess: () => {
          showSuccess(t('cases:users.partnerAdded'));
          setPartnerId(null);
        },
        onError: showError,
      },
    );
  };

  const body = () => {
    if (links.isError) {
      return (
        <Text size="sm" c="red">
          {t('cases:users.partnersError')}
        </Text>
      );
    }
    if (links.isSuccess && links.data.length === 0) {
      return (
        <Text size="sm" c="dimmed">
          {t('cases:users.noLinkedPartners')}
        </Text>
      );
    }
    if (links.isSuccess && available.length === 0) {
      return (
        <Text size="sm" c="dimmed">
          {t('cases:users.allPartnersAdded')}
        </Text>
      );
    }
    return (
      <>
        <Select
          label={t('cases:users.partner')}
          placeholder={links.isLoading ? t('cases:list.loading') : undefined}
          data={available.map((partner) => ({
            value: String(partner.id),
            label: `${partner.displayName} (${partner.email})`,
          }))}
          value={partnerId}
          onChange={setPartnerId}
          searchable
        />
        <Checkbox
          label={t('cases:users.notifyPartner')}
          checked={notify}
          onChange={(event) => setNotify(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button onClick={submit} disabled={!partnerId} loading={add.isPending}>
            {t('cases:users.addPartner')}
          </Button>
        </Group>
      </>
    );
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('cases:users.partners')}
        </Title>
        {body()}
      </Stack>
    </Card>
  );
}
