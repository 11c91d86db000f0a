import { useCallback, useSyncExternalStore } from 'react';
import { useProfile } from '../../profile/api/get-profile';

/**
 * The case this tab's shopping orders for: `/shop?caseId=…` (the case page's 'Order more for this
 * case') sets it, the checkout sends it as the order's `caseId`, and a placed order or 'order for
 * another case' forgets it. Kept in session storage per user, so it lives as long as the tab and
 * a reload keeps it; the cart itself stays shared by the tabs.
 */
const keyOf = (userId: number) => `dentflow.orderForCase.${userId}`;

// Where storage is disabled the choice is kept for the page's life.
const memory = new Map<number, number>();
const listeners = new Set<() => void>();

export const parseCaseIdParam = (value: string | null): number | null => {
  const id = Number(value);
  return value !== null && Number.isSafeInteger(id) && id > 0 ? id : null;
};

export function readOrderForCase(userId: number): number | null {
  try {
    return parseCaseIdParam(window.sessionStorage.getItem(keyOf(userId)));
  } catch {
    return memory.get(userId) ?? null;
  }
}

export function setOrderForCase(userId: number, caseId: number | null): void {
  try {
    if (caseId === null) window.sessionStorage.removeItem(keyOf(userId));
    else window.sessionStorage.setItem(keyOf(userId), String(caseId));
  } catch {
    if (caseId === null) memory.delete(userId);
    else memory.set(userId, caseId);
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The signed-in user's case to order for in this tab (null: a new case or one chosen at checkout). */
export function useOrderForCase(): {
  caseId: number | null;
  setCaseId: (caseId: number | null) => void;
  /** False until the signed-in user is known (nothing can be remembered before). */
  ready: boolean;
} {
  const { data: profile } = useProfile();
  const userId = profile?.id ?? null;
  const getSnapshot = useCallback(
    () => (userId === null ? null : readOrderForCase(userId)),
    [userId],
  );
  const caseId = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const setCaseId = useCallback(
    (next: number | null) => {
      if (userId !== null) setOrderForCase(userId, next);
    },
    [userId],
  );
  return { caseId, setCaseId, ready: userId !== null };
}
