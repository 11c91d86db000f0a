import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { PATIENT_CARD_NAME_LENGTH } from '../constants';

/** Person: display name is first plus last name; valid when id above 0. */
export const personSchema = z.object({
  id: z.number().int(),
  fname: z.string().max(60, MESSAGE.max),
  lname: z.string().max(60, MESSAGE.max),
  gender: z.string().max(20, MESSAGE.max).nullable(),
  age: z.number().int().min(0).max(150).nullable(),
});
export type Person = z.infer<typeof personSchema>;

export function personDisplayName(
  person: Pick<Person, 'fname' | 'lname'> | null | undefined,
): string {
  if (!person) return '';
  return [person.fname, person.lname]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');
}

export function isPersonValid(person: Pick<Person, 'id'> | null | undefined): boolean {
  return !!person && Number.isInteger(person.id) && person.id > 0;
}

/** A patient requires first and last name (its other fields are not shown). */
export const patientSchema = z.object({
  fname: z.string({ error: MESSAGE.required }).trim().min(1, MESSAGE.required).max(60, MESSAGE.max),
  lname: z.string({ error: MESSAGE.required }).trim().min(1, MESSAGE.required).max(60, MESSAGE.max),
  gender: z.string().max(20, MESSAGE.max).nullable().optional(),
  age: z.number().int().min(0).max(150).nullable().optional(),
});
export type Patient = z.infer<typeof patientSchema>;

export function isPatientValid(patient: Partial<Patient> | null | undefined): boolean {
  return patientSchema.safeParse(patient ?? undefined).success;
}

/** Patient cards truncate names to 15 characters (an ellipsis marks the cut). */
export function truncateName(name: string, length: number = PATIENT_CARD_NAME_LENGTH): string {
  const chars = Array.from(name);
  return chars.length <= length ? name : `${chars.slice(0, length).join('')}…`;
}
