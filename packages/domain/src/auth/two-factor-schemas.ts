import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { isRecoveryCode, isTotpCode } from './two-factor';

// Apart from the constants in two-factor.ts: the login page reads those, and zod would add about
// 25 KB to its JavaScript.

/** A second-factor answer: an authenticator code or a recovery code. */
export const secondFactorCodeSchema = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(40, MESSAGE.max)
  .refine((text) => isTotpCode(text) || isRecoveryCode(text), MESSAGE.twoFactorCode);

/** Only an authenticator code (enrolment, disabling, new recovery codes). */
export const totpCodeSchema = z
  .string({ error: MESSAGE.required })
  .trim()
  .min(1, MESSAGE.required)
  .max(20, MESSAGE.max)
  .refine(isTotpCode, MESSAGE.twoFactorCode);
