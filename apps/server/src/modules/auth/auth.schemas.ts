import { z } from 'zod';
import {
  LANGUAGES,
  MESSAGE,
  TWO_FACTOR,
  emailSchema,
  nickNameSchema,
  passwordSchema,
  requiredText,
  userProfileSchema,
} from '@dentflow/domain';

const loginText = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(254, MESSAGE.max);
const opaqueToken = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(200, MESSAGE.max);

export const registerBody = z.object({
  email: emailSchema,
  password: passwordSchema,
  fname: requiredText(60),
  lname: requiredText(60),
  nickName: nickNameSchema,
  terms: z.literal(true, { error: MESSAGE.termsRequired }),
  coupom: z.string().trim().max(60, MESSAGE.max).optional(),
  language: z.enum(LANGUAGES, { error: 'validation.invalid' }).optional(),
  /** An instructor's invitation token: a usable one makes the new user their student. */
  invite: z.string().trim().max(200, MESSAGE.max).optional(),
});
export type RegisterInput = z.infer<typeof registerBody>;

export const verifyAccountBody = z.object({ token: opaqueToken });
export const resendVerificationBody = z.object({ login: loginText });
export const loginBody = z.object({
  login: loginText,
  password: z.string({ error: MESSAGE.required }).min(1, MESSAGE.required).max(200, MESSAGE.max),
  remember: z.boolean().optional(),
  /** This browser's remembered-device tokens (one per account that chose to remember it). */
  devices: z.array(z.string().max(200)).max(TWO_FACTOR.maxDeviceTokens).optional(),
});
/** Missing or malformed is answered like an unknown token: 401 not authorized (the client then logs out). */
export const refreshBody = z
  .object({ refresh_token: z.string().max(500).optional().catch(undefined) })
  .optional()
  .catch(undefined);
export const logoutBody = z.object({ refresh_token: opaqueToken });
export const forgotPasswordBody = z.object({ email: emailSchema });
export const resetPasswordBody = z
  .object({
    token: opaqueToken,
    password: passwordSchema,
    confirmPassword: z.string({ error: MESSAGE.required }).max(200, MESSAGE.max),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: MESSAGE.confirmed,
    path: ['confirmPassword'],
  });

export const sessionResult = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  profile: userProfileSchema,
});
export type SessionResult = z.infer<typeof sessionResult>;

/** The step after a right password when the account needs a second factor. */
export const twoFactorChallengeResult = z.object({
  twoFactor: z.object({
    /** Short-lived token for the next step (`/auth/twoFactor/*`); grants nothing alone. */
    challenge: z.string(),
    /** 'code': enter a code; 'enrol': the role requires two-factor and none is set up yet. */
    step: z.enum(['code', 'enrol']),
  }),
});
export const loginResult = z.union([sessionResult, twoFactorChallengeResult]);
