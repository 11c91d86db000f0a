import { z } from 'zod';
import {
  MESSAGE,
  dataAddressFormSchema,
  dataGeneralUpdateSchema,
  dataInfoUpdateSchema,
  passwordSchema,
} from '@dentflow/domain';

/**
 * What a user may change of their own profile. Strict objects: `roles`, `internal`,
 * `dataCapabilities`, `email` and any other key are refused with 400 (field-level authorization).
 */
export const profileSetBody = z
  .object({
    dataGeneral: dataGeneralUpdateSchema.optional(),
    dataInfo: dataInfoUpdateSchema.optional(),
    dataAddress: dataAddressFormSchema.partial().strict().optional(),
  })
  .strict();
export type ProfileSetInput = z.infer<typeof profileSetBody>;

export const verifyNicknameBody = z.object({
  nickname: z.string({ error: MESSAGE.required }).max(200, MESSAGE.max),
});

export const updatePasswordBody = z
  .object({
    currentPassword: z
      .string({ error: MESSAGE.required })
      .min(1, MESSAGE.required)
      .max(200, MESSAGE.max),
    newPassword: passwordSchema,
    confirmPassword: z.string({ error: MESSAGE.required }).max(200, MESSAGE.max),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: MESSAGE.confirmed,
    path: ['confirmPassword'],
  });

export const announcementResult = z.object({
  id: z.number().int().optional(),
  active: z.boolean(),
  title: z.string(),
  body: z.string(),
});

export const instructorResult = z.object({
  instructor_id: z.number().int().nullable(),
  instructor_discount: z.number(),
});
