import { isOneOf } from '../common/one-of';
/** Avatar rule: JPG, GIF or PNG, at most 800 kB. */
export const AVATAR_MAX_BYTES = 800 * 1024;
export const AVATAR_MIME_TYPES = ['image/jpeg', 'image/gif', 'image/png'] as const;
/** For file pickers (`accept` attribute) and dropzones. */
export const AVATAR_ACCEPT = AVATAR_MIME_TYPES.join(',');

export type AvatarRejection = 'type' | 'size';

/** Why a file may not be an avatar, or null when it may. `image/jpg` is a common alias of JPEG. */
export function avatarRejection(file: { type: string; size: number }): AvatarRejection | null {
  const type = file.type.toLowerCase() === 'image/jpg' ? 'image/jpeg' : file.type.toLowerCase();
  if (!isOneOf(AVATAR_MIME_TYPES, type)) return 'type';
  if (!Number.isFinite(file.size) || file.size <= 0 || file.size > AVATAR_MAX_BYTES) return 'size';
  return null;
}

export function isAllowedAvatar(file: { type: string; size: number }): boolean {
  return avatarRejection(file) === null;
}
