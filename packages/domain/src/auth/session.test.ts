import { describe, expect, it } from 'vitest';
import { LOGGED_OUT, sessionReducer, type SessionState } from './session';

const loggedIn: SessionState = {
  status: 'loggedIn',
  accessToken: 'a',
  roles: ['doctor', 'public'],
};

describe('auth state', () => {
  it.each([
    [
      LOGGED_OUT,
      { type: 'loginSuccess', accessToken: 't1', roles: ['doctor'] },
      { status: 'loggedIn', accessToken: 't1', roles: ['doctor', 'public'] },
    ],
    [
      loggedIn,
      { type: 'refreshSuccess', accessToken: 't2', roles: ['planner'] },
      { status: 'loggedIn', accessToken: 't2', roles: ['planner', 'public'] },
    ],
    [
      LOGGED_OUT,
      { type: 'loginSuccess', accessToken: 't3', roles: [] },
      { status: 'loggedIn', accessToken: 't3', roles: ['public'] },
    ],
    [loggedIn, { type: 'loginFailure' }, LOGGED_OUT],
    [loggedIn, { type: 'refreshFailure' }, LOGGED_OUT],
    [loggedIn, { type: 'logout' }, LOGGED_OUT],
  ] as const)('%j + %j', (state, action, next) =>
    expect(sessionReducer(state, action)).toEqual(next),
  );
});
