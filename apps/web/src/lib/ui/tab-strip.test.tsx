import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tabs } from '@mantine/core';
import { renderWithApp } from '../../test/render';
import { tabStripEdges, useTabStrip } from './tab-strip';

describe('tabStripEdges', () => {
  it.each([
    // left, scrollWidth, clientWidth → tabs hidden before / after
    { left: 0, scrollWidth: 375, clientWidth: 375, start: false, end: false },
    { left: 0, scrollWidth: 700, clientWidth: 375, start: false, end: true },
    { left: 120, scrollWidth: 700, clientWidth: 375, start: true, end: true },
    { left: 325, scrollWidth: 700, clientWidth: 375, start: true, end: false },
    // Fractional positions of a zoomed screen count as the edge.
    { left: 324.5, scrollWidth: 700, clientWidth: 375, start: true, end: false },
    { left: 0.5, scrollWidth: 700, clientWidth: 375, start: false, end: true },
  ])('$left of $scrollWidth in $clientWidth', ({ left, scrollWidth, clientWidth, start, end }) => {
    expect(tabStripEdges(left, scrollWidth, clientWidth)).toEqual({ start, end });
  });
});

const NAMES = ['general', 'attachments', 'chat', 'users', 'transactions', 'history'];

function Strip() {
  const [tab, setTab] = useState<string | null>('general');
  const strip = useTabStrip(tab);
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List {...strip} aria-label="Sections">
        {NAMES.map((name) => (
          <Tabs.Tab key={name} value={name}>
            {name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

/** Gives the strip the scroll metrics a 375 px phone would. */
function layOut(list: HTMLElement, scrollLeft: number) {
  Object.defineProperty(list, 'scrollWidth', { configurable: true, value: 700 });
  Object.defineProperty(list, 'clientWidth', { configurable: true, value: 375 });
  list.scrollLeft = scrollLeft;
  fireEvent.scroll(list);
}

describe('useTabStrip', () => {
  afterEach(() => vi.restoreAllMocks());

  it('fades the side that has tabs behind it, as the strip scrolls', () => {
    renderWithApp(<Strip />);
    const list = screen.getByRole('tablist', { name: 'Sections' });
    expect(list).toHaveClass('df-tab-strip');
    expect(list).not.toHaveAttribute('data-more-end');

    layOut(list, 0);
    expect(list).toHaveAttribute('data-more-end');
    expect(list).not.toHaveAttribute('data-more-start');

    layOut(list, 150);
    expect(list).toHaveAttribute('data-more-start');
    expect(list).toHaveAttribute('data-more-end');

    layOut(list, 325);
    expect(list).toHaveAttribute('data-more-start');
    expect(list).not.toHaveAttribute('data-more-end');
  });

  it('scrolls the tab chosen with the keyboard into view', async () => {
    const scrolled: Element[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    renderWithApp(<Strip />);
    const last = screen.getByRole('tab', { name: 'history' });
    expect(scrolled.at(-1)).toBe(screen.getByRole('tab', { name: 'general' }));

    await userEvent.click(screen.getByRole('tab', { name: 'general' }));
    await userEvent.keyboard('{ArrowLeft}');
    expect(last).toHaveAttribute('aria-selected', 'true');
    expect(scrolled.at(-1)).toBe(last);
  });
});
