import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AVATAR_MAX_BYTES, isOneOf } from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import { AppError } from '../../http/app-error';
import { avatarKeyOf } from '../users';
import { writeAudit } from '../audit';
import { findUserAvatar, setUserAvatar } from './attachments.repository';

/** Square thumbnail side in pixels. */
export const AVATAR_SIZE = 256;
const AVATAR_PATH = '/api/v1/profile/avatar';
const NAME = /^[a-f0-9]{32}$/;

/** The avatar's object key is derived from the URL stored on the user: `avatars/{id}/{name}`. */
const avatarUrl = (userId: number, name: string) => `${AVATAR_PATH}/${userId}/${name}`;
/** Avatar: JPG, GIF or PNG up to 800 kB, stored as a square WebP thumbnail. */
export function createAvatarService(ctx: AppContext) {
  const { db, storage } = ctx;
  return {
    async upload(userId: number, file: Buffer, meta: RequestMeta): Promise<{ avatar: string }> {
      if (file.length === 0) throw new AppError(400, 'BAD_REQUEST');
      if (file.length > AVATAR_MAX_BYTES) throw new AppError(413, 'FILE_TOO_LARGE');
      const detected = await fileTypeFromBuffer(file);
      if (!isOneOf(['jpg', 'png', 'gif'], detected?.ext)) {
        throw new AppError(415, 'FILE_TYPE_NOT_ALLOWED');
      }
      let thumbnail: Buffer;
      try {
        // A pixel cap against decompression bombs; the first frame of a GIF; EXIF orientation kept.
        thumbnail = await sharp(file, { limitInputPixels: 40_000_000, animated: false })
          .rotate()
          .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
          .webp({ quality: 82 })
          .toBuffer();
      } catch {
        throw new AppError(422, 'FILE_CONTENT_MISMATCH');
      }
      const name = randomBytes(16).toString('hex');
      await storage.put(`avatars/${userId}/${name}`, thumbnail, 'image/webp');
      const previous = await findUserAvatar(db, userId);
      const avatar = avatarUrl(userId, name);
      await db.transaction(async (tx) => {
        await setUserAvatar(tx, userId, avatar);
        await writeAudit(tx, {
          actorUserId: userId,
          action: 'profile.avatar',
          entity: 'user',
          entityId: userId,
          ip: meta.ip,
        });
      });
      const oldKey = avatarKeyOf(previous);
      if (oldKey) await storage.delete(oldKey).catch(() => undefined);
      return { avatar };
    },

    /** The current avatar of a user; an old or made-up name is 404. */
    async open(userId: number, name: string) {
      if (!NAME.test(name)) throw new AppError(404, 'NOT_FOUND');
      const current = await findUserAvatar(db, userId);
      if (current !== avatarUrl(userId, name)) throw new AppError(404, 'NOT_FOUND');
      return storage.getObjectStream(`avatars/${userId}/${name}`);
    },

    /** Admins remove a user's avatar (removal control admin only). */
    async remove(actorId: number, userId: number, meta: RequestMeta) {
      const current = await findUserAvatar(db, userId);
      if (current === undefined) throw new AppError(404, 'NOT_FOUND');
      await db.transaction(async (tx) => {
        await setUserAvatar(tx, userId, null);
        await writeAudit(tx, {
          actorUserId: actorId,
          action: 'user.avatar.remove',
          entity: 'user',
          entityId: userId,
          ip: meta.ip,
        });
      });
      const key = avatarKeyOf(current);
      if (key) await storage.delete(key).catch(() => undefined);
      return { avatar: null };
    },
  };
}

export type AvatarService = ReturnType<typeof createAvatarService>;
