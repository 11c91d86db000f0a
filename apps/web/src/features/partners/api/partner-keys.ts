/** TanStack Query keys of the partners screen; every list refreshes after a link or an unlink. */
export const partnerKeys = {
  all: ['partners'] as const,
  lists: () => [...partnerKeys.all, 'list'] as const,
  userSearch: (q: string) => [...partnerKeys.all, 'user-search', q] as const,
};
