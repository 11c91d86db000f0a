import { z } from 'zod';
import { isInstructor } from '../auth/roles';
import {
  isAddressDataValid,
  isGeneralDataValid,
  type DataAddress,
  type DataCapabilities,
  type DataGeneral,
} from './profile';

/** The facts about a student's instructor that decide the discount the student gets. */
export interface InstructorFacts {
  roles: readonly string[];
  verified: boolean;
  deleted: boolean;
  dataCapabilities: Pick<DataCapabilities, 'instructorDiscount'>;
}

/**
 * The percent a student saves: their instructor's discount as it is now (an admin may set or
 * change it after the student joined), while that account is a live, verified instructor; 0
 * without an instructor or when it stopped being one. A copy kept on the student's row would go
 * stale, so checkout and the profile both ask this.
 */
export function studentDiscountPercent(instructor: InstructorFacts | null | undefined): number {
  if (!instructor || !instructor.verified || instructor.deleted) return 0;
  if (!isInstructor(instructor.roles)) return 0;
  const percent = instructor.dataCapabilities.instructorDiscount;
  return Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.trunc(percent))) : 0;
}

/** The profile-settings tabs that hold the data a complete profile needs. */
export type ProfileGapTab = 'general' | 'address';

/**
 * Where an incomplete profile is missing data, in tab order ('general' before 'address'); null
 * when the profile is complete (general data and address valid), the one rule for the server's
 * refusal (PROFILE_INCOMPLETE) and the web's redirect.
 */
export function profileGap(
  profile:
    | { dataGeneral?: Partial<DataGeneral> | null; dataAddress?: Partial<DataAddress> | null }
    | null
    | undefined,
): ProfileGapTab | null {
  if (!isGeneralDataValid(profile?.dataGeneral)) return 'general';
  if (!isAddressDataValid(profile?.dataAddress)) return 'address';
  return null;
}

/** `GET /profile/instructor`: the caller's instructor and the discount the caller gets now. */
export const myInstructorSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  discount: z.number().int(),
});
export type MyInstructor = z.infer<typeof myInstructorSchema>;
export const myInstructorAnswerSchema = myInstructorSchema.nullable();
