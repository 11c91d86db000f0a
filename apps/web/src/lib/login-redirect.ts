/** Where the route guard remembers the page the user wanted, for after login. */
export interface LoginRedirectState {
  from?: string;
}

/** The path to go back to after login: only an in-app path, never /login itself. */
export function redirectAfterLogin(state: unknown): string {
  const from = (state as LoginRedirectState | null)?.from;
  if (
    typeof from === 'string' &&
    from.startsWith('/') &&
    !from.startsWith('//') &&
    !from.startsWith('/login')
  ) {
    return from;
  }
  return '/';
}
