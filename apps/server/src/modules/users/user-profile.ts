import {
  isValidDocument,
  profileGap,
  sessionRoles,
  type DataAddress,
  type DataInfo,
  type UserProfile,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import { isNicknameTaken, type UserPatch, type UserRow } from './users.repository';

/** The user profile of a stored user, as the API returns it (roles include 'public'). */
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

/**
 * Refuses (409 PROFILE_INCOMPLETE) what needs a complete profile: opening a case and checking
 * out. The rule of "complete" is the domain's `profileGap`, which the web uses to send the user to
 * the tab that is missing data.
 */
export function assertProfileComplete(user: UserRow): void {
  if (profileGap(toUserProfile(user)) !== null) throw new AppError(409, 'PROFILE_INCOMPLETE');
}

/**
 * The patch of a profile save (the user's own or an admin's), merged into the row the caller
 * locked: the partial info and address never drop fields saved meanwhile; a taken nickname is 409;
 * the merged document must pass its type's check, so changing only the type cannot leave a stored
 * document invalid (the body schema checks only a document sent with its type).
 */
export async function profilePatchOf(
  tx: DbOrTx,
  user: UserRow,
  input: {
    dataGeneral?: { nickName?: string; fname?: string; lname?: string; displayName?: string };
    dataInfo?: Partial<DataInfo>;
    dataAddress?: Partial<DataAddress>;
  },
): Promise<UserPatch> {
  const patch: UserPatch = {};
  const general = input.dataGeneral ?? {};
  if (general.nickName !== undefined && general.nickName !== user.nickName) {
    if (await isNicknameTaken(tx, general.nickName, user.id)) {
      throw new AppError(409, 'NICKNAME_TAKEN');
    }
    patch.nickName = general.nickName;
  }
  if (general.fname !== undefined) patch.fname = general.fname;
  if (general.lname !== undefined) patch.lname = general.lname;
  if (general.displayName !== undefined) patch.displayName = general.displayName;
  if (input.dataInfo) {
    const info = { ...user.dataInfo, ...input.dataInfo };
    const documentTouched =
      input.dataInfo.document !== undefined || input.dataInfo.typeOfDocument !== undefined;
    if (
      documentTouched &&
      info.document.trim() !== '' &&
      !isValidDocument(info.typeOfDocument, info.document)
    ) {
      throw validationError({ 'dataInfo.document': 'validation.invalidDocument' });
    }
    patch.dataInfo = info;
  }
  if (input.dataAddress) patch.dataAddress = { ...user.dataAddress, ...input.dataAddress };
  return patch;
}
