import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { hasRefreshToken } from '../../lib/session-storage';
import type { LoginRedirectState } from '../../lib/login-redirect';

/** Route guard: no refresh token in local storage → /login, remembering the wanted path. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!hasRefreshToken()) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from } satisfies LoginRedirectState} />;
  }
  return children;
}
