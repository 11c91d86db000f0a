import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useDebouncedUrlUpdate } from './use-debounced-url-update';

describe('useDebouncedUrlUpdate', () => {
  afterEach(() => {
    vi.useRealTimers();
    window.history.replaceState(null, '', '/');
  });

  it('applies the last call once calls pause, while the page is still the current one', () => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '/users');
    const update = vi.fn();
    const { result } = renderHook(() => useDebouncedUrlUpdate(update, 300));
    act(() => {
      result.current('an');
      result.current('ana');
    });
    act(() => vi.advanceTimersByTime(299));
    expect(update).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(update).toHaveBeenCalledExactlyOnceWith('ana');
  });

  it('drops a pending call once the user has moved to another page', () => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', '/users');
    const update = vi.fn();
    const { result } = renderHook(() => useDebouncedUrlUpdate(update, 300));
    act(() => result.current('ana'));
    // A link to a lazily loaded page: the address changes, this page is still mounted.
    window.history.pushState(null, '', '/users/17');
    act(() => vi.advanceTimersByTime(300));
    expect(update).not.toHaveBeenCalled();
  });
});
