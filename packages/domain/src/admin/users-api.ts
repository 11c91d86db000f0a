/**
 * The users administration API contract: `/api/v1/users/…`, shared by
 * the server's routes and the web. Admins change; supervisors read.
 */
import { z } from 'zod';
import { ROLES } from '../auth/roles';
import {
  dataCapabilitiesSchema,
  dataGeneralUpdateSchema,
  dataInfoUpdateSchema,
  dataAddressFormSchema,
  userProfileSchema,
} from '../profile/profile';

export const USERS_PAGE_SIZE = 20;

const flag = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .optional();

/** `GET /users/list/{page}?role=&verified=&internal=&q=` (page from 0). */
export const usersListQuerySchema = z.object({
  role: z.enum(ROLES).optional(),
  verified: flag,
  internal: flag,
  /** Name, email or nickname; case- and accent-insensitive. */
  q: z.string().trim().max(120).optional(),
});
export type UsersListQuery = z.infer<typeof usersListQuerySchema>;

/** A row of the users table. */
export const userRowSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  nickName: z.string(),
  roles: z.array(z.string()),
  internal: z.boolean(),
  verified: z.boolean(),
  avatar: z.string().nullable(),
  createdAt: z.string(),
});
export type UserRow = z.infer<typeof userRowSchema>;

export const usersPageSchema = z.object({
  items: z.array(userRowSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(0),
  pageSize: z.number().int(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

/** `GET /users/get/{id}`: the whole profile, as the user's own profile answer shows it. */
export const adminUserSchema = userProfileSchema.extend({
  /** What the caller may change (admins: everything but their own admin role and deletion). */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/**
 * `POST /users/{id}/set` (admin): any section may be left out. Roles, the internal flag and
 * capabilities only by an admin; an admin never removes their own admin role.
 */
export const adminUserSetBodySchema = z.object({
  dataGeneral: dataGeneralUpdateSchema.optional(),
  dataInfo: dataInfoUpdateSchema.optional(),
  dataAddress: dataAddressFormSchema.optional(),
  roles: z.array(z.enum(ROLES)).min(1).max(ROLES.length).optional(),
  internal: z.boolean().optional(),
  dataCapabilities: dataCapabilitiesSchema.partial().optional(),
});
export type AdminUserSetBody = z.infer<typeof adminUserSetBodySchema>;

/** `POST /users/setPassword/{id}` (admin): ends the user's sessions. */
export const adminSetPasswordBodySchema = z.object({ password: z.string().min(8).max(200) });

/** `GET /users/query_user/{field}/{value}`: pickers (at most 10). */
export const QUERY_USER_FIELDS = ['email', 'nickname', 'name'] as const;
export const queryUserParamsSchema = z.object({
  field: z.enum(QUERY_USER_FIELDS),
  value: z.string().trim().min(1).max(120),
});
export const userPickSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  nickName: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
});
export type UserPick = z.infer<typeof userPickSchema>;
