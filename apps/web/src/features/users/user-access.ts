import {
  ROLES,
  type AdminUser,
  type AdminUserSetBody,
  type DataCapabilities,
  type Role,
} from '@dentflow/domain';

/** What the access editor edits: roles, the internal flag and the capabilities. */
export interface AccessValues {
  roles: Role[];
  internal: boolean;
  capabilities: DataCapabilities;
}

const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);

/** The stored roles in ROLES order ('public' and unknown names are not editable). */
export const editableRoles = (roles: readonly string[]): Role[] =>
  ROLES.filter((role) => roles.filter(isRole).includes(role));

export const accessValuesOf = (user: AdminUser): AccessValues => ({
  roles: editableRoles(user.roles),
  internal: user.internal,
  capabilities: { ...user.dataCapabilities },
});

const sameRoles = (a: readonly Role[], b: readonly Role[]) =>
  a.length === b.length && a.every((role) => b.includes(role));

/**
 * The `users/{id}/set` body of an access edit: only what changed (so a roles edit never rewrites
 * capabilities someone else changed meanwhile); null when nothing did.
 */
export function accessChanges(before: AccessValues, after: AccessValues): AdminUserSetBody | null {
  const body: AdminUserSetBody = {};
  if (!sameRoles(before.roles, after.roles)) body.roles = editableRoles(after.roles);
  if (before.internal !== after.internal) body.internal = after.internal;
  const capabilities: Partial<DataCapabilities> = {};
  for (const key of Object.keys(after.capabilities) as (keyof DataCapabilities)[]) {
    if (before.capabilities[key] !== after.capabilities[key]) {
      Object.assign(capabilities, { [key]: after.capabilities[key] });
    }
  }
  if (Object.keys(capabilities).length > 0) body.dataCapabilities = capabilities;
  return Object.keys(body).length > 0 ? body : null;
}
