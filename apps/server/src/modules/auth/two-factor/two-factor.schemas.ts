import { z } from 'zod';
import { MESSAGE, secondFactorCodeSchema, totpCodeSchema } from '@dentflow/domain';
import { sessionResult } from '../auth.schemas';

const challenge = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(1000, MESSAGE.max);

export const challengeBody = z.object({ challenge });
export const loginCodeBody = z.object({
  challenge,
  code: secondFactorCodeSchema,
  rememberDevice: z.boolean().optional(),
});
export const loginEnrolBody = z.object({
  challenge,
  code: totpCodeSchema,
  rememberDevice: z.boolean().optional(),
});
export const codeBody = z.object({ code: totpCodeSchema });
export const disableBody = z.object({
  password: z.string({ error: MESSAGE.required }).min(1, MESSAGE.required).max(200, MESSAGE.max),
  code: secondFactorCodeSchema,
});

export const setupResult = z.object({
  /** The new secret in base32, for typing by hand; answered only while enrolling. */
  secret: z.string(),
  /** The same secret as the `otpauth://` URI the QR code carries. */
  otpauthUri: z.string(),
});
export const recoveryCodesResult = z.object({ recoveryCodes: z.array(z.string()) });
export const secondFactorSessionResult = sessionResult.extend({
  deviceToken: z.string().optional(),
  recoveryCodes: z.array(z.string()).optional(),
});
export const statusResult = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  rememberedDevices: z.number().int(),
});
