import type { ReactNode } from 'react';
import { hasRefreshToken } from '../../lib/session-storage';

/** A page open to everyone: the signed-in layout with a session, the public one without. */
export function WithSessionOrPublic(props: { signedIn: ReactNode; anonymous: ReactNode }) {
  return hasRefreshToken() ? props.signedIn : props.anonymous;
}
