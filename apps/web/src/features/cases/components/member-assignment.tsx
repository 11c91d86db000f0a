import { useState } from 'react';
import { Button, Card, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { CaseDetail, UserPick } from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { useUserSearch } from '../../partners/api/search-users';
import { USER_SEARCH_DEBOUNCE_MS } from '../../partners/components/user-picker';
import { useAddCaseUser } from '../api/add-case-user';

/**
 * Staff add any user to the case — a planner, a printer, a doctor, a partner — found by name,
 * nickname or email, and choose whether they are told of the case's events. The owner and those
 * already on the case are not offered.
 */
export function MemberAssignment({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const add = useAddCaseUser(detail.id);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, USER_SEARCH_DEBOUNCE_MS);
  const found = useUserSearch(debounced);
  const [chosen, setChosen] = useState<UserPick | null>(null);
  const [notify, setNotify] = useState(true);

  const taken = new Set([detail.ownerId, ...detail.users.map((member) => member.userId)]);
  const matches = (found.data ?? []).filter((user) => !taken.has(user.id));
  // The chosen user stays an option while the next search runs.
  const users = chosen && !matches.some((u) => u.id === chosen.id) ? [chosen, ...matches] : matches;
  const roleNames = (roles: readonly string[]) =>
    roles
      .filter((role) => role !== 'public')
      .map((role) => t(`roles.${role}`, { defaultValue: role }))
      .join(', ');

  const submit = () => {
    if (!chosen) return;
    add.mutate(
      { userId: chosen.id, triggerNotification: notify },
      {
        onSuccess: () => {
          showSuccess(t('cases:users.memberAdded'));
          setChosen(null);
          setSearch('');
        },
        onError: showError,
      },
    );
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            {t('cases:users.addMember')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('cases:users.addMemberHint')}
          </Text>
        </div>
        <Select
          label={t('cases:users.memberSearch')}
          placeholder={t('cases:users.memberSearchHint')}
          searchable
          clearable
          data={users.map((user) => ({
            value: String(user.id),
            label: `${user.displayName} (${user.email}) · ${roleNames(user.roles)}`,
          }))}
          value={chosen ? String(chosen.id) : null}
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options }) => options}
          nothingFoundMessage={
            debounced.trim().length >= 2 && !found.isFetching ? t('cases:users.nothingFound') : null
          }
          onChange={(value) => setChosen(users.find((user) => String(user.id) === value) ?? null)}
        />
        <Checkbox
          label={t('cases:users.notifyMember')}
          checked={notify}
          onChange={(event) => setNotify(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button onClick={submit} disabled={!chosen} loading={add.isPending}>
            {t('cases:users.add')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
