import { isErrorCode, languageTag, type ErrorCode, type UserProfile } from '@dentflow/domain';
import { currentLanguage, i18n } from './i18n';
import { getRefreshToken, setRefreshToken, setStoredUser } from './session-storage';

/**
 * The one HTTP client: base `/api/v1`, JSON, bearer access token, the caller's
 * language, the `{obj}` / `{error, code, fields}` envelope, and one refresh on 401 with
 * concurrent requests waiting for it. Only a refused refresh ends the session.
 */
export const API_BASE = '/api/v1';

/**
 * An API error's code: one of the server's (`ERROR_CODES`), or one the client sets itself —
 * `NETWORK_ERROR` (no answer), `HTTP_ERROR` (an answer that is not the API's envelope, e.g. a
 * proxy's page) or `ERROR` (an envelope without a code this app knows, e.g. a newer server's).
 */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR' | 'HTTP_ERROR' | 'ERROR';

/** The code of an error envelope as this app knows it. */
export const envelopeCode = (code: unknown): ApiErrorCode => (isErrorCode(code) ? code : 'ERROR');

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ApiErrorCode,
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
  /** The server refused the refresh: the app resets language, tells the user and goes to /login. */
  onSessionExpired: () => void;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions {
  /** Whether a 401 may trigger the refresh-and-retry (never for /auth/* calls). */
  retryOnUnauthorized?: boolean;
}

/** The Web Lock every tab of the app takes around a refresh (same origin, same name). */
export const REFRESH_LOCK_NAME = 'dentflow-refresh';

// Without Web Locks (old browsers, jsdom) refreshes of this window still run one after another.
let fallbackLockQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs `task` while holding the refresh lock. The server revokes a whole token family when an
 * already-rotated refresh token is presented (decision 003), so two tabs must never refresh with
 * the same stored token: the lock makes the second tab wait and then read the rotated one.
 */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks && typeof locks.request === 'function') {
    return locks.request(REFRESH_LOCK_NAME, () => task());
  }
  const run = fallbackLockQueue.then(task, task);
  fallbackLockQueue = run.catch(() => undefined);
  return run;
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
    // A path under another API version (`/api/v2/...`) is taken as it is.
    const url = path.startsWith('/api/') ? path : `${API_BASE}${path}`;
    return await fetch(url, {
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
  return readEnvelope<T>(response.status, payload);
}

/**
 * The API's envelope of an answer: `{obj}` → obj; `{error, code, fields}` → an ApiError with the
 * server's translated message; anything else → an unexpected-error ApiError. Also for answers the
 * client does not read itself (a file download).
 */
export function readEnvelope<T>(status: number, payload: unknown): T {
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const { error, code, fields } = payload as { error: unknown; code?: unknown; fields?: unknown };
    throw new ApiError(
      String(error),
      envelopeCode(code),
      status,
      fields && typeof fields === 'object' ? (fields as Record<string, string>) : {},
    );
  }
  const ok = status >= 200 && status < 300;
  if (!ok || !payload || typeof payload !== 'object' || !('obj' in payload)) {
    throw new ApiError(i18n.t('feedback.unexpectedError'), 'HTTP_ERROR', status);
  }
  return (payload as { obj: T }).obj;
}

/** Options of a multipart upload (`upload`): its progress and a way to stop it. */
export interface UploadOptions {
  /** The share of the body sent so far, 0–100 (back to 0 when the form is sent again). */
  onProgress?: (percent: number) => void;
  /** Aborting stops the request; the upload then rejects with an `AbortError` DOMException. */
  signal?: AbortSignal;
}

function abortError(): DOMException {
  return new DOMException('The upload was aborted.', 'AbortError');
}

/**
 * One multipart POST through XMLHttpRequest, the only browser API that reports upload progress.
 * The same headers as `send` (bearer token, language); the answer is left to the caller.
 */
function sendMultipart(
  path: string,
  form: FormData,
  token: string | null,
  { onProgress, signal }: UploadOptions,
): Promise<{ status: number; payload: unknown }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const stopOnAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', stopOnAbort);
    xhr.upload.onprogress = (event) => {
      if (onProgress && event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.floor((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      settle();
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      resolve({ status: xhr.status, payload });
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(i18n.t('feedback.networkError'), 'NETWORK_ERROR', 0));
    };
    xhr.onabort = () => {
      settle();
      reject(abortError());
    };
    signal?.addEventListener('abort', stopOnAbort, { once: true });
    xhr.open('POST', path.startsWith('/api/') ? path : `${API_BASE}${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', languageTag(currentLanguage()));
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.send(form);
  });
}

const notAuthorized = () => new ApiError('not authorized', 'NOT_AUTHORIZED', 401);

/** 4xx statuses that mean "not now" rather than "no": a time-out and a rate limit. */
const TRY_LATER_STATUSES: ReadonlySet<number> = new Set([408, 429]);

/**
 * Whether a failed refresh is the server refusing the session (401 / NOT_AUTHORIZED, or another
 * 4xx answered in the API's envelope), after which the stored refresh token is worthless. A
 * network error, a 5xx or a 4xx page that is not ours (a proxy during a deploy) is not: the
 * session is still valid on the server and a later request or a reload can refresh with it.
 */
export function isSessionRefused(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 401 || error.code === 'NOT_AUTHORIZED') return true;
  const answeredByTheApi = error.code !== 'HTTP_ERROR'; // (a network error has status 0)
  return (
    answeredByTheApi &&
    error.status >= 400 &&
    error.status < 500 &&
    !TRY_LATER_STATUSES.has(error.status)
  );
}

/**
 * One client per browser tab (the app uses the default one below; tests create several to play
 * several tabs sharing one local storage). The access token lives only in the client's memory;
 * the refresh token in local storage, shared by the tabs.
 */
export function createApiClient() {
  const hooks: ApiClientHooks = { onSession: () => {}, onSessionExpired: () => {} };
  let accessToken: string | null = null;
  let refreshInFlight: Promise<Session> | null = null;

  function configure(next: Partial<ApiClientHooks>): void {
    Object.assign(hooks, next);
  }

  const getAccessToken = (): string | null => accessToken;

  /** Keeps a session returned by login or refresh. */
  function storeSession(session: Session): void {
    accessToken = session.accessToken;
    setRefreshToken(session.refreshToken);
    setStoredUser(session.profile);
    hooks.onSession(session);
  }

  /** Forgets the session on this browser (logout or refused refresh). */
  function clearSession(): void {
    accessToken = null;
    setRefreshToken(null);
    setStoredUser(null);
  }

  /**
   * One refresh at a time: every caller of this tab that meets a 401 while a refresh runs waits
   * for the same promise and is then retried with the new token.
   */
  function refreshSession(): Promise<Session> {
    refreshInFlight ??= doRefresh().finally(() => {
      refreshInFlight = null;
    });
    return refreshInFlight;
  }

  async function doRefresh(): Promise<Session> {
    const tokenBefore = getRefreshToken();
    // No session to lose (e.g. a request still in flight after logout): nothing to report.
    if (!tokenBefore) throw notAuthorized();
    let expired = false;
    try {
      return await withRefreshLock(async () => {
        // Read again inside the lock: another tab may have rotated the token meanwhile, and the
        // stored one is then the newest, the only one the server still accepts.
        const refreshToken = getRefreshToken();
        if (!refreshToken) {
          // Another tab's refresh failed or it logged out: this tab's session is over too.
          expired = true;
          clearSession();
          throw notAuthorized();
        }
        try {
          const response = await send(
            'POST',
            '/auth/refresh_token',
            { refresh_token: refreshToken },
            null,
          );
          const session = await unwrap<Session>(response);
          // Stored before the lock is released, so the next tab reads the rotated token.
          storeSession(session);
          return session;
        } catch (error) {
          // Only a refusal ends the session. After a network error or a 5xx the waiting requests
          // fail with that error, and the stored token stays for the next try (this tab or another).
          if (isSessionRefused(error)) {
            expired = true;
            clearSession();
          }
          throw error;
        }
      });
    } finally {
      if (expired) hooks.onSessionExpired();
    }
  }

  async function apiRequest<T>(
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

  /**
   * A multipart POST (files) with upload progress: the same bearer token, language, envelope and
   * one refresh on 401 as `apiRequest`; the form is sent again after the refresh.
   */
  async function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
    const tokenUsed = accessToken;
    const first = await sendMultipart(path, form, tokenUsed, options);
    if (first.status !== 401 || path.startsWith('/auth/')) {
      return readEnvelope<T>(first.status, first.payload);
    }
    // Another request may already have refreshed while this one was in flight.
    const token =
      accessToken && accessToken !== tokenUsed ? accessToken : (await refreshSession()).accessToken;
    options.onProgress?.(0);
    const second = await sendMultipart(path, form, token, options);
    return readEnvelope<T>(second.status, second.payload);
  }

  const api = {
    get: <T>(path: string) => apiRequest<T>('GET', path),
    post: <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
    delete: <T>(path: string, body?: unknown) => apiRequest<T>('DELETE', path, body),
  };

  return {
    api,
    apiRequest,
    upload,
    configure,
    getAccessToken,
    storeSession,
    clearSession,
    refreshSession,
  };
}

/** This tab's client. */
const defaultClient = createApiClient();

export const {
  api,
  apiRequest,
  upload: apiUpload,
  configure: configureApiClient,
  getAccessToken,
  storeSession,
  clearSession,
  refreshSession,
} = defaultClient;
