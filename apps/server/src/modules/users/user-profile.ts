import { sessionRoles, type UserProfile } from '@dentflow/domain';
import type { UserRow } from './users.repository';

/** The spec §3 user profile of a stored user, as the API returns it (roles include 'public'). */
export function toUserProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    created_at: user.createdAt.toISOString(),
    verified_at: user.verifiedAt?.toISOString() ?? null,
    modifiedAt: user.modifiedAt.toISOString(),
    roles: sessionRoles(user.roles),
    internal: user.internal,
    dataGeneral: {
      displayName: user.displayName,
      fname: user.fname,
      lname: user.lname,
      nickName: user.nickName,
      email: user.email,
      avatar: user.avatar,
    },
    dataInfo: user.dataInfo,
    dataAddress: user.dataAddress,
    dataCapabilities: user.dataCapabilities,
  };
}
