import { z } from 'zod';

/** Failure body. */
export const errorEnvelopeSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ErrorEnvelope' });

/** Success body `{obj}`. */
export const ok = <T extends z.ZodType>(obj: T) => z.object({ obj });

/** The responses every route documents: its success shape and the shared error envelope. */
export const responses = <T extends z.ZodType>(obj: T) => ({
  200: ok(obj),
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
});

/** A stored time as the API answers it: ISO 8601, or null when unset. */
export const isoOrNull = (date: Date | null | undefined) => (date ? date.toISOString() : null);
