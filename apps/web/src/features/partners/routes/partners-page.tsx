import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  EmptyState,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAffiliate, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { foldText, isAdmin, sessionRoles, type PartnerLink } from '@dentflow/domain';
import { ClinicOnly } from '../../../app/guards/role-only';
import { errorMessage, showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { useProfile } from '../../profile/api/get-profile';
import { usePartnerLinks } from '../api/list-partners';
import { useLinkPartner, useUnlinkPartner } from '../api/manage-links';
import { UserPicker } from '../components/user-picker';

/**
 * /partners: a clinic sees the partners linked to it; an admin manages every
 * clinic–partner link. Others get the not-authorized page, as the server refuses them too.
 */
export function PartnersPage() {
  const { data: profile } = useProfile();
  return (
    <ClinicOnly>
      <PartnerLinks admin={!!profile && isAdmin(sessionRoles(profile.roles))} />
    </ClinicOnly>
  );
}

function PartnerLinks({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const list = usePartnerLinks();
  const [search, setSearch] = useState('');
  const [unlinking, setUnlinking] = useState<PartnerLink | null>(null);
  const unlink = useUnlinkPartner();

  const confirmUnlink = () => {
    if (!unlinking) return;
    unlink.mutate(unlinking.id, {
      onSuccess: () => {
        showSuccess(t('admin:partners.unlinked'));
        setUnlinking(null);
      },
      onError: showError,
    });
  };

  const folded = foldText(search.trim());
  const links = (list.data ?? []).filter(
    (link) =>
      !folded ||
      [link.clinic.displayName, link.clinic.email, link.partner.displayName, link.partner.email]
        .map((text) => foldText(text))
        .some((text) => text.includes(folded)),
  );

  let body: ReactNode;
  if (list.isLoading) {
    body = (
      <Stack gap="xs" aria-busy="true" aria-label={t('admin:partners.loading')}>
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} h={40} radius="sm" />
        ))}
      </Stack>
    );
  } else if (list.isError) {
    body = (
      <Alert color="red" title={t('feedback.error')}>
        <Text size="sm">{errorMessage(list.error)}</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void list.refetch()}>
          {t('admin:partners.retry')}
        </Button>
      </Alert>
    );
  } else if (links.length === 0) {
    body = (
      <EmptyState
        icon={<IconAffiliate size={28} />}
        title={t('admin:partners.emptyTitle')}
        description={admin ? t('admin:partners.emptyAdminBody') : t('admin:partners.emptyBody')}
        py="xl"
      />
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={admin ? 640 : 360}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {admin && <Table.Th>{t('admin:partners.clinic')}</Table.Th>}
              <Table.Th>{t('admin:partners.partner')}</Table.Th>
              <Table.Th>{t('admin:partners.email')}</Table.Th>
              {admin && <Table.Th aria-label={t('admin:partners.actions')} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.map((link) => (
              <Table.Tr key={link.id}>
                {admin && (
                  <Table.Td>
                    <Text size="sm">{link.clinic.displayName}</Text>
                    <Text size="xs" c="dimmed">
                      {link.clinic.email}
                    </Text>
                  </Table.Td>
                )}
                <Table.Td>{link.partner.displayName}</Table.Td>
                <Table.Td>{link.partner.email}</Table.Td>
                {admin && (
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => setUnlinking(link)}
                      aria-label={t('admin:partners.unlinkNamed', {
                        partner: link.partner.displayName,
                        clinic: link.clinic.displayName,
                      })}
                    >
                      {t('admin:partners.unlink')}
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>{t('admin:partners.title')}</Title>
        <Text c="dimmed" size="sm">
          {admin ? t('admin:partners.adminIntro') : t('admin:partners.clinicIntro')}
        </Text>
      </div>
      {admin && <LinkForm />}
      {admin && (
        <TextInput
          leftSection={<IconSearch size={16} />}
          label={t('admin:partners.filter')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={360}
        />
      )}
      {body}
      <ConfirmDialog
        opened={unlinking !== null}
        title={t('admin:partners.unlinkTitle')}
        message={
          unlinking
            ? t('admin:partners.unlinkMessage', {
                partner: unlinking.partner.displayName,
                clinic: unlinking.clinic.displayName,
              })
            : ''
        }
        confirmLabel={t('admin:partners.unlink')}
        danger
        loading={unlink.isPending}
        onConfirm={confirmUnlink}
        onClose={() => setUnlinking(null)}
      />
    </Stack>
  );
}

/** Admins: choose a clinic and a partner, then link them. */
function LinkForm() {
  const { t } = useTranslation();
  const [clinicId, setClinicId] = useState<string | null>(null);
  const [partnerId, setPartnerId] = useState<string | null>(null);
  const link = useLinkPartner();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!clinicId || !partnerId) return;
    link.mutate(
      { clinicId: Number(clinicId), partnerId: Number(partnerId) },
      {
        onSuccess: () => {
          showSuccess(t('admin:partners.linked'));
          setPartnerId(null);
        },
        onError: showError,
      },
    );
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit}>
      <Stack gap="sm">
        <Text fw={600}>{t('admin:partners.linkTitle')}</Text>
        <Group align="flex-end" grow wrap="wrap">
          <UserPicker
            label={t('admin:partners.clinic')}
            role="clinic"
            value={clinicId}
            onChange={setClinicId}
          />
          <UserPicker
            label={t('admin:partners.partner')}
            role="partner"
            value={partnerId}
            onChange={setPartnerId}
          />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" disabled={!clinicId || !partnerId} loading={link.isPending}>
            {t('admin:partners.link')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
