import type { UsersListQuery } from '@dentflow/domain';

/** TanStack Query keys of the users admin: a save refreshes the lists and replaces the detail. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (page: number, filters: UsersListQuery) => [...userKeys.lists(), page, filters] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
  instructors: () => [...userKeys.all, 'instructors'] as const,
};
