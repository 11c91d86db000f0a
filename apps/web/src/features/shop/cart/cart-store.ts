import {
  cartItemSchema,
  cartReducer,
  emptyCart,
  shipmentSchema,
  type CartAction,
  type CartState,
} from '@dentflow/domain';

/**
 * The cart lives in local storage, one entry per user (another user on the same browser never
 * sees it), so it survives a reload and is shared by the tabs. Local storage is the one source
 * of truth: the snapshot is re-read (and parsed only when the stored text changed).
 */
const CART_KEY_PREFIX = 'dentflow.cart.';
export const cartStorageKey = (userId: number) => `${CART_KEY_PREFIX}${userId}`;

const EMPTY: CartState = Object.freeze(emptyCart()) as CartState;

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the cart lasts as long as the page
  }
}

/** A stored cart, or null when it is not one (an older shape, a hand edit): then it is dropped. */
export function parseStoredCart(raw: string): CartState | null {
  try {
    const value = JSON.parse(raw) as { items?: unknown; shipment?: unknown };
    const items = cartItemSchema.array().safeParse(value?.items);
    const shipment = shipmentSchema.safeParse(value?.shipment);
    return items.success && shipment.success
      ? { items: items.data, shipment: shipment.data }
      : null;
  } catch {
    return null;
  }
}

const snapshots = new Map<string, { raw: string | null; state: CartState }>();
// Without storage (private mode) the cart is kept here instead.
const memory = new Map<string, CartState>();
const listeners = new Set<() => void>();

export function readCart(userId: number): CartState {
  const key = cartStorageKey(userId);
  const raw = readRaw(key);
  const last = snapshots.get(key);
  if (last && last.raw === raw) return last.state;
  const parsed = raw === null ? (memory.get(key) ?? EMPTY) : parseStoredCart(raw);
  if (parsed === null) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // nothing stored to drop
    }
  }
  const state = parsed ?? EMPTY;
  snapshots.set(key, { raw: parsed === null ? null : raw, state });
  return state;
}

const notify = () => listeners.forEach((listener) => listener());

export function dispatchCart(userId: number, action: CartAction): CartState {
  const key = cartStorageKey(userId);
  const next = cartReducer(readCart(userId), action);
  const raw = JSON.stringify(next);
  try {
    window.localStorage.setItem(key, raw);
    memory.delete(key);
  } catch {
    memory.set(key, next);
  }
  snapshots.set(key, { raw, state: next });
  notify();
  return next;
}

export function subscribeCart(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed the cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(CART_KEY_PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const EMPTY_CART = EMPTY;
