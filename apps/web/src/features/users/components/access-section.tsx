import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ROLES, type AdminUser, type DataCapabilities, type Role } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { showError, showSuccess } from '../../../lib/notify';
import { useInstructors } from '../api/list-instructors';
import { useSetUser } from '../api/set-user';
import { accessChanges, accessValuesOf, type AccessValues } from '../user-access';
import { ReadOnlyFields } from './read-only-fields';
import { InternalBadge, RoleBadges } from './user-badges';

const BOOLEAN_CAPABILITIES = ['physicalCreditCard', 'clinicPartner', 'dentalPrev'] as const;

/**
 * Roles, the internal flag and the capabilities (admins). A save sends only what changed; the
 * server refuses an admin removing their own admin role (SELF_LOCKOUT), shown here.
 */
export function AccessSection({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const initial = accessValuesOf(user);
  const setUser = useSetUser(user.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  const instructors = useInstructors();
  const form = useForm<AccessValues>({
    initialValues: initial,
    validate: {
      roles: (roles) => (roles.length === 0 ? t('admin:users.access.rolesRequired') : null),
    },
  });
  const changes = accessChanges(initial, form.values);
  const capabilities = user.dataCapabilities;

  const instructorName = (id: number | null) => {
    if (id === null) return '';
    return instructors.data?.find((instructor) => instructor.id === id)?.displayName ?? `#${id}`;
  };

  if (!user.canEdit) {
    return (
      <Stack gap="sm">
        <Group gap="xs">
          <RoleBadges roles={user.roles} />
          <InternalBadge internal={user.internal} />
        </Group>
        <ReadOnlyFields
          fields={[
            ...BOOLEAN_CAPABILITIES.map((key) => ({
              label: t(`admin:users.capabilities.${key}`),
              value: capabilities[key] ? t('admin:users.yes') : t('admin:users.no'),
            })),
            {
              label: t('admin:users.capabilities.instructorDiscount'),
              value: `${capabilities.instructorDiscount}%`,
            },
            {
              label: t('admin:users.capabilities.instructorId'),
              value: instructorName(capabilities.instructorId),
            },
          ]}
        />
      </Stack>
    );
  }

  const instructorOptions = (instructors.data ?? [])
    .filter((instructor) => instructor.id !== user.id)
    .map((instructor) => ({ value: String(instructor.id), label: instructor.displayName }));
  const current = form.values.capabilities.instructorId;
  // An instructor no longer listed (unverified, role removed) stays visible as chosen.
  if (current !== null && !instructorOptions.some((option) => option.value === String(current))) {
    instructorOptions.push({ value: String(current), label: `#${current}` });
  }

  const setCapability = <K extends keyof DataCapabilities>(key: K, value: DataCapabilities[K]) =>
    form.setFieldValue(`capabilities.${key}`, value as never);

  const submit = form.onSubmit((values) => {
    const body = accessChanges(initial, values);
    if (!body) return;
    setRefusal(null);
    setUser.mutate(body, {
      onSuccess: () => showSuccess(t('admin:users.saved')),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'SELF_LOCKOUT') setRefusal(error.message);
        showError(error);
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate data-testid="user-access-editor">
      <Stack>
        {refusal && (
          <Alert
            color="red"
            title={t('admin:users.access.refused')}
            data-testid="user-access-error"
          >
            {refusal}
          </Alert>
        )}
        <Checkbox.Group
          label={t('admin:users.access.roles')}
          value={form.values.roles}
          onChange={(value) => form.setFieldValue('roles', value as Role[])}
          error={form.errors.roles}
          data-testid="user-roles-editor"
        >
          <SimpleGrid cols={{ base: 2, sm: 4 }} mt="xs">
            {ROLES.map((role) => (
              <Checkbox
                key={role}
                value={role}
                label={t(`roles.${role}`)}
                data-testid={`user-role-${role}`}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Switch
          label={t('admin:users.access.internal')}
          description={t('admin:users.access.internalHint')}
          checked={form.values.internal}
          onChange={(event) => form.setFieldValue('internal', event.currentTarget.checked)}
          data-testid="user-internal"
        />
        <Title order={3} size="h5" mt="sm">
          {t('admin:users.capabilities.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {BOOLEAN_CAPABILITIES.map((key) => (
            <Switch
              key={key}
              label={t(`admin:users.capabilities.${key}`)}
              checked={form.values.capabilities[key]}
              onChange={(event) => setCapability(key, event.currentTarget.checked)}
              data-testid={`user-capability-${key}`}
            />
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('admin:users.capabilities.instructorDiscount')}
            description={t('admin:users.capabilities.instructorDiscountHint')}
            min={0}
            max={100}
            clampBehavior="strict"
            allowDecimal={false}
            allowNegative={false}
            suffix="%"
            value={form.values.capabilities.instructorDiscount}
            onChange={(value) =>
              setCapability('instructorDiscount', typeof value === 'number' ? value : 0)
            }
            data-testid="user-capability-instructorDiscount"
          />
          <Select
            label={t('admin:users.capabilities.instructorId')}
            placeholder={t('admin:users.capabilities.noInstructor')}
            data={instructorOptions}
            value={current === null ? null : String(current)}
            onChange={(value) => setCapability('instructorId', value ? Number(value) : null)}
            searchable
            clearable
            nothingFoundMessage={t('admin:users.capabilities.noInstructorFound')}
            data-testid="user-capability-instructorId"
          />
        </SimpleGrid>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {changes ? t('admin:users.access.unsaved') : ''}
          </Text>
          <Button
            type="submit"
            disabled={!changes}
            loading={setUser.isPending}
            data-testid="user-access-save"
          >
            {t('admin:users.access.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
