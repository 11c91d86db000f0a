import { languageTag, type UserProfile } from '@dentflow/domain';
import { currentLanguage, i18n } from './i18n';
import { getRefreshToken, setRefreshToken, setStoredUser } from './session-storage';

/**
 * The one HTTP client (DESIGN §5): base `/api/v1`, JSON, bearer access token, the caller's
 * language, the `{obj}` / `{error, code, fields}` envelope, and one refresh on 401 with
 * concurrent requests waiting for it.
 */
export const API_BASE = '/api/v1';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  profile: UserProfile;
}

interface ApiClientHooks {
  /** A new session arrived (login or refresh): the app refreshes its cached profile. */
  onSession: (session: Session) => void;
  /** The refresh failed: the app resets language, tells the user and goes to /login. */
  onSessionExpired: () => void;
}

const hooks: ApiClientHooks = { onSession: () => {}, onSessionExpired: () => {} };

export function configureApiClient(next: Partial<ApiClientHooks>): void {
  Object.assign(hooks, next);
}

// The access token lives only in memory; the refresh token in local storage.
let accessToken: string | null = null;
let refreshInFlight: Promise<Session> | null = null;

export const getAccessToken = (): string | null => accessToken;

/** Keeps a session returned by login or refresh. */
export function storeSession(session: Session): void {
  accessToken = session.accessToken;
  setRefreshToken(session.refreshToken);
  setStoredUser(session.profile);
  hooks.onSession(session);
}

/** Forgets the session on this browser (logout or failed refresh). */
export function clearSession(): void {
  accessToken = null;
  setRefreshToken(null);
  setStoredUser(null);
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions {
  /** Whether a 401 may trigger the refresh-and-retry (never for /auth/* calls). */
  retryOnUnauthorized?: boolean;
}

async function send(
  method: Method,
  path: string,
  body: unknown,
  token: string | null,
): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': languageTag(currentLanguage()),
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(i18n.t('feedback.networkError'), 'NETWORK_ERROR', 0);
  }
}

async function unwrap<T>(response: Response): Promise<T> {
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    payload = undefined;
  }
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const { error, code, fields } = payload as { error: unknown; code?: unknown; fields?: unknown };
    throw new ApiError(
      String(error),
      typeof code === 'string' ? code : 'ERROR',
      response.status,
      fields && typeof fields === 'object' ? (fields as Record<string, string>) : {},
    );
  }
  if (!response.ok || !payload || typeof payload !== 'object' || !('obj' in payload)) {
    throw new ApiError(i18n.t('feedback.unexpectedError'), 'HTTP_ERROR', response.status);
  }
  return (payload as { obj: T }).obj;
}

/**
 * One refresh at a time: every caller that meets a 401 while a refresh runs waits for the same
 * promise and is then retried with the new token.
 */
export function refreshSession(): Promise<Session> {
  refreshInFlight ??= doRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function doRefresh(): Promise<Session> {
  const refreshToken = getRefreshToken();
  // No session to lose (e.g. a request still in flight after logout): nothing to report.
  if (!refreshToken) throw new ApiError('not authorized', 'NOT_AUTHORIZED', 401);
  try {
    const response = await send(
      'POST',
      '/auth/refresh_token',
      { refresh_token: refreshToken },
      null,
    );
    const session = await unwrap<Session>(response);
    storeSession(session);
    return session;
  } catch (error) {
    clearSession();
    hooks.onSessionExpired();
    throw error;
  }
}

export async function apiRequest<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const retry = options.retryOnUnauthorized ?? !path.startsWith('/auth/');
  const tokenUsed = accessToken;
  const response = await send(method, path, body, tokenUsed);
  if (response.status !== 401 || !retry) return unwrap<T>(response);

  // Another request may already have refreshed while this one was in flight.
  if (accessToken && accessToken !== tokenUsed) {
    return unwrap<T>(await send(method, path, body, accessToken));
  }
  const session = await refreshSession();
  return unwrap<T>(await send(method, path, body, session.accessToken));
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
  delete: <T>(path: string, body?: unknown) => apiRequest<T>('DELETE', path, body),
};
