import { Link } from 'react-router';
import { Anchor, Avatar, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '@dentflow/domain';
import { InternalBadge, RoleBadges, VerifiedBadge } from './user-badges';

const userPath = (user: UserRow) => `/users/${user.id}`;

function UserName({ user }: { user: UserRow }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Avatar src={user.avatar} size="sm" radius="xl" name={user.displayName} />
      <Anchor component={Link} to={userPath(user)} fw={600} data-testid={`user-link-${user.id}`}>
        {user.displayName || user.email}
      </Anchor>
    </Group>
  );
}

/** One page of users: a table on wide screens, cards on a phone. */
export function UsersTable({ users, cards }: { users: UserRow[]; cards: boolean }) {
  const { t } = useTranslation();
  if (cards) {
    return (
      <Stack gap="xs" data-testid="users-cards">
        {users.map((user) => (
          <Card key={user.id} withBorder padding="sm" data-testid={`user-row-${user.id}`}>
            <Stack gap={6}>
              <UserName user={user} />
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {user.email}
              </Text>
              <Text size="sm" c="dimmed">
                @{user.nickName}
              </Text>
              <RoleBadges roles={user.roles} />
              <Group gap={4}>
                <VerifiedBadge verified={user.verified} />
                <InternalBadge internal={user.internal} />
              </Group>
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin:users.columns.displayName')}</Table.Th>
            <Table.Th>{t('admin:users.columns.email')}</Table.Th>
            <Table.Th>{t('admin:users.columns.nickName')}</Table.Th>
            <Table.Th>{t('admin:users.columns.roles')}</Table.Th>
            <Table.Th>{t('admin:users.columns.verified')}</Table.Th>
            <Table.Th>{t('admin:users.columns.internal')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-testid={`user-row-${user.id}`}>
              <Table.Td>
                <UserName user={user} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{user.email}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{user.nickName}</Text>
              </Table.Td>
              <Table.Td>
                <RoleBadges roles={user.roles} />
              </Table.Td>
              <Table.Td>
                <VerifiedBadge verified={user.verified} />
              </Table.Td>
              <Table.Td>
                {user.internal ? (
                  <InternalBadge internal />
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('admin:users.no')}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
