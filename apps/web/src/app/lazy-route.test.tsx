import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { lazyRoute } from './lazy-route';

const page = { Page: () => <p>the page</p> };

describe('lazyRoute', () => {
  it('renders a preloaded page at once, without its Suspense fallback', async () => {
    const load = vi.fn(() => Promise.resolve(page));
    const Page = lazyRoute(load, 'Page');
    await Page.preload();
    const fallback = vi.fn(() => <p>loading</p>);
    const Fallback = () => fallback();

    render(
      <Suspense fallback={<Fallback />}>
        <Page />
      </Suspense>,
    );

    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(fallback).not.toHaveBeenCalled();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a page rendered while its preload runs waits for that same download', async () => {
    const load = vi.fn(() => Promise.resolve(page));
    const Page = lazyRoute(load, 'Page');
    const preloading = Page.preload();

    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );

    expect(screen.getByText('loading')).toBeInTheDocument();
    await preloading;
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed preload is tried again by the next one', async () => {
    const load = vi
      .fn<() => Promise<typeof page>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(page);
    const Page = lazyRoute(load, 'Page');
    await expect(Page.preload()).rejects.toThrow('offline');
    await expect(Page.preload()).resolves.toBe(page.Page);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
