/**
 * One idempotency key per checkout attempt: the same order sent again (a double click, a retry
 * after a network error, even after a reload) carries the same key, so the server answers the
 * first result instead of ordering twice. A changed order gets a new key; success forgets it.
 * Kept in session storage (this tab), per user.
 */
const attemptKey = (userId: number) => `dentflow.checkoutAttempt.${userId}`;

interface Attempt {
  key: string;
  body: string;
}

function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context randomUUID is missing; getRandomValues is still there.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// Where storage is disabled the attempt is kept for the page's life.
const memory = new Map<number, Attempt>();

function read(userId: number): Attempt | null {
  try {
    const raw = window.sessionStorage.getItem(attemptKey(userId));
    const value = raw ? (JSON.parse(raw) as Partial<Attempt>) : null;
    return value && typeof value.key === 'string' && typeof value.body === 'string'
      ? { key: value.key, body: value.body }
      : null;
  } catch {
    return memory.get(userId) ?? null;
  }
}

/** The key for this order body: the pending attempt's when the body is the same, else a new one. */
export function idempotencyKeyFor(userId: number, body: string): string {
  const pending = read(userId);
  if (pending && pending.body === body) return pending.key;
  const attempt = { key: newKey(), body };
  try {
    window.sessionStorage.setItem(attemptKey(userId), JSON.stringify(attempt));
  } catch {
    memory.set(userId, attempt);
  }
  return attempt.key;
}

export function forgetCheckoutAttempt(userId: number): void {
  memory.delete(userId);
  try {
    window.sessionStorage.removeItem(attemptKey(userId));
  } catch {
    // nothing to forget
  }
}
