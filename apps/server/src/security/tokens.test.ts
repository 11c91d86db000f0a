import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, createAccessTokens } from './tokens';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies its own token, again from memory, and refuses a changed or foreign one', async () => {
    const tokens = createAccessTokens(SECRET);
    const token = await tokens.sign({ userId: 7, sessionId: 'family-1' });
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionId: 'family-1' });
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionId: 'family-1' });
    const [header, payload, signature] = token.split('.');
    const flipped = signature!.startsWith('A')
      ? `B${signature!.slice(1)}`
      : `A${signature!.slice(1)}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeNull();
    const other = createAccessTokens(`${SECRET}-other`);
    expect(await other.verify(token)).toBeNull();
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = createAccessTokens(SECRET);
    const token = await tokens.sign({ userId: 7, sessionId: 'family-1' });
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    expect(await tokens.verify(token)).toBeNull();
  });
});
