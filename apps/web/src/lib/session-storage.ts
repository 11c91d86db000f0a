import type { Language, UserProfile } from '@dentflow/domain';

/**
 * What the browser keeps between visits ("user info is kept in local storage"):
 * the refresh token, the user's profile and an explicit language choice. The access token
 * is short-lived and lives only in memory (see api-client).
 */
const REFRESH_TOKEN_KEY = 'dentflow.refreshToken';
const USER_KEY = 'dentflow.user';
const LANGUAGE_KEY = 'dentflow.language';
const WELCOME_SEEN_KEY = 'dentflow.welcomeSeen';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode): behave as a first visit
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage disabled: the session simply does not survive a reload
  }
}

export const getRefreshToken = (): string | null => read(REFRESH_TOKEN_KEY);
export const setRefreshToken = (token: string | null): void => write(REFRESH_TOKEN_KEY, token);
export const hasRefreshToken = (): boolean => !!getRefreshToken();

export function getStoredUser(): UserProfile | null {
  const raw = read(USER_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserProfile;
  } catch {
    return null;
  }
}
export const setStoredUser = (user: UserProfile | null): void =>
  write(USER_KEY, user ? JSON.stringify(user) : null);

export const getStoredLanguage = (): string | null => read(LANGUAGE_KEY);
export const setStoredLanguage = (language: Language | null): void => write(LANGUAGE_KEY, language);

export const hasSeenWelcome = (): boolean => read(WELCOME_SEEN_KEY) === '1';
export const markWelcomeSeen = (): void => write(WELCOME_SEEN_KEY, '1');
