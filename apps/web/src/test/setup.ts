import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { i18nReady } from '../lib/i18n';

// findBy…/waitFor wait up to 10 s (1 s by default): a loaded CI machine renders slowly.
configure({ asyncUtilTimeout: 10_000 });

// Mantine needs these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
// Mantine's autosize Textarea listens for font loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}
window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};

afterEach(() => {
  cleanup();
  // The notifications store is global: one test's toasts must not show in the next.
  notifications.clean();
  window.localStorage.clear();
  // Files share a worker (isolate: false): no stubbed fetch or fake clock may reach the next one.
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// Texts load per language (lazily in the app); tests start with the starting language loaded.
await i18nReady;
