import { TWO_FACTOR } from '@dentflow/domain';

/**
 * The remembered-device tokens this browser holds, one per account that chose "remember this
 * device" after its second factor; every login sends them and the server uses the one of the
 * account logging in. Newest first, at most as many as a login may send.
 */
const DEVICES_KEY = 'dentflow.trustedDevices';

export function getDeviceTokens(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(DEVICES_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((token): token is string => typeof token === 'string')
      : [];
  } catch {
    return [];
  }
}

export function addDeviceToken(token: string): void {
  const tokens = [token, ...getDeviceTokens().filter((known) => known !== token)];
  try {
    window.localStorage.setItem(
      DEVICES_KEY,
      JSON.stringify(tokens.slice(0, TWO_FACTOR.maxDeviceTokens)),
    );
  } catch {
    // storage disabled: the next login asks for the code again
  }
}
