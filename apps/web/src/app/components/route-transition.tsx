import { useEffect, useState, type ReactNode } from 'react';
import { Transition, type MantineTransition } from '@mantine/core';

/** "zoom-fade" route transition: the new page fades in while growing to full size. */
const zoomFade: MantineTransition = {
  in: { opacity: 1, transform: 'scale(1)' },
  out: { opacity: 0, transform: 'scale(0.97)' },
  transitionProperty: 'opacity, transform',
};

/** Plays the transition each time it mounts; key it by the route path. */
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
    >
      {(styles) => <div style={styles}>{children}</div>}
    </Transition>
  );
}
