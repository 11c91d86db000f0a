import { sessionRoles, type SessionRole } from './roles';

/**
 * Auth state: logged in or out; a login or refresh success stores the access token (and
 * the roles, always with 'public'); a failure or logout clears it.
 */
export interface SessionState {
  status: 'loggedIn' | 'loggedOut';
  accessToken: string | null;
  roles: SessionRole[];
}

export const LOGGED_OUT: SessionState = Object.freeze({
  status: 'loggedOut',
  accessToken: null,
  roles: [],
}) as SessionState;

export type SessionAction =
  | { type: 'loginSuccess' | 'refreshSuccess'; accessToken: string; roles: readonly string[] }
  | { type: 'loginFailure' | 'refreshFailure' | 'logout' };

export function sessionReducer(_state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'loginSuccess':
    case 'refreshSuccess':
      return {
        status: 'loggedIn',
        accessToken: action.accessToken,
        roles: sessionRoles(action.roles),
      };
    case 'loginFailure':
    case 'refreshFailure':
    case 'logout':
      return LOGGED_OUT;
  }
}
