import { useEffect, useState, type ReactNode } from 'react';
import { Transition, type MantineTransition } from '@mantine/core';

/** "zoom-fade" route transition: the new page fades in while growing to full size. */
const zoomFade: MantineTransition = {
  in: { opacity: 1, transform: 'scale(1)' },
  out: { opacity: 0, transform: 'scale(0.97)' },
  transitionProperty: 'opacity, transform',
};

/**
 * Plays the transition each time it mounts; key it by the route path. Until the transition starts
 * the page is rendered but hidden with `display: none`, not in a hidden React Activity (Mantine's
 * default for `keepMounted`): a hidden Activity renders at the lowest priority and mounts no
 * effects, so the page's queries would start only once the transition had begun.
 */
export function RouteTransition({ children }: { children: ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <Transition
      mounted={mounted}
      transition={zoomFade}
      duration={220}
      timingFunction="ease-out"
      keepMounted
      keepMountedMode="display-none"
    >
      {(styles) => <div style={styles}>{children}</div>}
    </Transition>
  );
}
