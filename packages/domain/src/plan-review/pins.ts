import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { languageTag, type Language } from '../i18n/locale';
import { CHAT_CHANNELS, type ChatChannelId } from '../chat/chat';
import type { AttachmentActor } from '../attachments/attachment-rules';

/**
 * Pins on a planning model: a note anchored to a point of the mesh (point and face normal in the
 * model's own coordinates, millimetres) with the camera it was dropped from
 * (docs/decisions/029-pin-anchoring.md). Who may pin and resolve, the chat channel a pin is
 * announced on, and how a measured distance reads.
 */

export const PIN_NOTE_MAX_LENGTH = 500;
/**
 * No coordinate of a pin or camera lies further than this from the model's origin (mm): a
 * dental model is a few centimetres, a camera some metres away at most.
 */
export const PIN_COORDINATE_MAX = 100_000;
/** How far a normal's length may stray from 1 (float32 meshes, rounding in JSON). */
export const PIN_NORMAL_TOLERANCE = 1e-3;

/** The distance between two points (mm, STL units). */
export const distanceMm = (a: readonly number[], b: readonly number[]): number =>
  Math.hypot((a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0), (a[2] ?? 0) - (b[2] ?? 0));

const coordinate = z
  .number({ error: MESSAGE.numeric })
  .refine(Number.isFinite, MESSAGE.numeric)
  .min(-PIN_COORDINATE_MAX, MESSAGE.min)
  .max(PIN_COORDINATE_MAX, MESSAGE.max);

/**
 * `[x, y, z]` in millimetres of the model. An array of three rather than a zod tuple: the web's
 * shared chunk holds zod, and tuples would add their code to every page's first load.
 */
const vec3Schema = z.array(coordinate).length(3, MESSAGE.invalid);

/** A unit vector, within `PIN_NORMAL_TOLERANCE`. */
const unitVec3Schema = vec3Schema.refine(
  ([x = 0, y = 0, z = 0]) => Math.abs(Math.hypot(x, y, z) - 1) <= PIN_NORMAL_TOLERANCE,
  MESSAGE.invalid,
);

/** Where the camera stood and looked when the pin was dropped (model coordinates). */
export const pinCameraSchema = z
  .object({ position: vec3Schema, target: vec3Schema })
  .refine(({ position, target }) => distanceMm(position, target) > 0, {
    message: MESSAGE.invalid,
    path: ['position'],
  });
export type PinCamera = z.infer<typeof pinCameraSchema>;

export const pinNoteSchema = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(PIN_NOTE_MAX_LENGTH, MESSAGE.max);

/** `POST /attachment/{id}/pins`. */
export const newPinBodySchema = z.object({
  point: vec3Schema,
  normal: unitVec3Schema,
  camera: pinCameraSchema,
  note: pinNoteSchema,
});
export type NewPinBody = z.infer<typeof newPinBodySchema>;

const person = z.object({ id: z.number().int(), name: z.string() });
const vec3 = z.array(z.number());

/** A pin as the API answers it. */
export const pinSchema = z.object({
  id: z.number().int(),
  attachmentId: z.number().int(),
  caseId: z.number().int(),
  /** The version of the planning file the pin belongs to (pins stay with their version). */
  version: z.number().int().min(1),
  author: person,
  note: z.string(),
  point: vec3,
  normal: vec3,
  camera: z.object({ position: vec3, target: vec3 }),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: person.nullable(),
  chatMessageId: z.number().int().nullable(),
});
export type Pin = z.infer<typeof pinSchema>;

export const pinListSchema = z.object({ items: z.array(pinSchema) });
export type PinList = z.infer<typeof pinListSchema>;

/** Only STL planning files are pinned: the plan the doctor reviews, as a mesh. */
export function isPinnableFile(file: { bucketName: string; filename: string | null }): boolean {
  return file.bucketName === 'planning' && /\.stl$/i.test(file.filename ?? '');
}

/**
 * Who drops pins on a file they see: the case's owner, its planner and staff. Members, printers
 * and instructors read the pins without adding any.
 */
export const mayPin = (actor: AttachmentActor): boolean => actor !== 'member';

/** Who resolves or reopens a pin: whoever may pin on the file, and the pin's own author. */
export const mayResolvePin = (
  actor: AttachmentActor,
  pin: { authorId: number },
  userId: number,
): boolean => mayPin(actor) || pin.authorId === userId;

/**
 * The chat channel that announces a pin: the public one when the client sees the file
 * (published, approved, change requested), the internal one while it is private to the lab.
 */
export const pinChatChannel = (fileStatus: string): ChatChannelId =>
  fileStatus === 'private' ? CHAT_CHANNELS.internal : CHAT_CHANNELS.public;

/** A measured distance as the reader writes numbers: one decimal, then "mm" ("12,4 mm" in ptBR). */
export function formatDistanceMm(mm: number, language: Language): string {
  const number = new Intl.NumberFormat(languageTag(language), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(mm);
  return `${number} mm`;
}
