import { z } from 'zod';
import {
  ATTACHMENT_ACTIONS,
  ATTACHMENT_BUCKETS,
  attachmentSchema,
  idParamSchema,
  idSchema,
  boundedIntSchema,
} from '@dentflow/domain';

export const idParams = z.object({ id: idParamSchema });
export const caseIdParams = z.object({ caseId: idParamSchema });

/** The spec's body; `id` (the case id again, in old clients) is accepted and ignored. */
export const uploadAnnouncementBody = z
  .object({
    id: idSchema.optional(),
    filename: z.string().trim().min(1).max(255),
    filesize: boundedIntSchema(1),
    attachment_name: z.string().trim().min(1).max(120),
    /** The browser's `File.type`, when known; it must agree with the filename's extension. */
    mimetype: z.string().trim().max(255).optional(),
    /** A planning file this upload answers: the current version of a chain of the same case. */
    replacesId: idSchema.optional(),
  })
  .strict();

export const requestChangeBody = z.object({ text: z.string().trim().min(1).max(1000) }).strict();

export const attachmentWithActions = attachmentSchema
  .omit({ uploadPercent: true, error: true })
  .extend({
    /** The attachment actions the caller may do now. */
    actions: z.array(z.enum(ATTACHMENT_ACTIONS)),
  })
  .meta({ id: 'AttachmentWithActions' });

export const presignedUpload = z.object({
  /** Where to POST the multipart form: fields first, the file last in a `file` field. */
  url: z.string(),
  fields: z.record(z.string(), z.string()),
});

export const createPostUrlResult = z.object({
  attachment: attachmentSchema.omit({ uploadPercent: true, error: true }),
  upload: presignedUpload,
});

export const uploadedSuccessResult = z.object({
  attachment: attachmentSchema.omit({ uploadPercent: true, error: true }),
  url: z.string().nullable(),
});

export const caseAttachmentsResult = z.object({
  items: z.array(attachmentWithActions),
  /** Required slots with no file yet (decision 012), with whether the caller may fill them. */
  slots: z.array(
    z.object({
      bucketName: z.enum(ATTACHMENT_BUCKETS),
      attachmentType: z.string(),
      /** Domain catalogue key under `attachments.` (e.g. `exams.upperJawStl`). */
      labelKey: z.string(),
      canUpload: z.boolean(),
    }),
  ),
  /** Buckets the caller may send new files to now. */
  uploadBuckets: z.array(z.enum(ATTACHMENT_BUCKETS)),
});

export const deleteResult = z.object({
  deleted: z.literal(true),
  /** The file filled a required slot, which is empty again. */
  emptySlot: z.boolean(),
});
