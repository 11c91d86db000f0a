/** TanStack Query keys of the audit log screen. */
export const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  actors: (q: string) => [...auditKeys.all, 'actors', q] as const,
};
