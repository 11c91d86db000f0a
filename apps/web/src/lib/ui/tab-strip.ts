import { useCallback } from 'react';
import './tab-strip.css';

/** Whether tabs hide behind the start and the end of a strip scrolled to `left`. */
export function tabStripEdges(
  left: number,
  scrollWidth: number,
  clientWidth: number,
): { start: boolean; end: boolean } {
  // 1 px of slack: zoomed screens report fractional scroll positions.
  return { start: left > 1, end: left + clientWidth < scrollWidth - 1 };
}

/**
 * Props for a Mantine `Tabs.List` that may not fit (phones): one scrolling row whose hidden side
 * fades (`data-more-start`/`data-more-end`), with the selected tab scrolled into view whenever
 * `selected` changes. Keyboard focus scrolls a tab into view by itself.
 */
export function useTabStrip(selected?: unknown) {
  const ref = useCallback(
    (list: HTMLDivElement | null) => {
      if (!list) return;
      const update = () => {
        const { start, end } = tabStripEdges(list.scrollLeft, list.scrollWidth, list.clientWidth);
        list.toggleAttribute('data-more-start', start);
        list.toggleAttribute('data-more-end', end);
      };
      list
        .querySelector('[aria-selected="true"]')
        ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      update();
      const resize = new ResizeObserver(update);
      resize.observe(list);
      list.addEventListener('scroll', update, { passive: true });
      return () => {
        resize.disconnect();
        list.removeEventListener('scroll', update);
      };
    },
    // A new selection re-runs the above: the ref is detached and attached again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [selected],
  );
  return { ref, className: 'df-tab-strip' };
}
