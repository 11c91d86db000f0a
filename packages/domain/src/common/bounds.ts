import { z } from 'zod';
import { MESSAGE } from '../forms/rules';

/**
 * The bounds of every number the API accepts. Ids, counts and money are stored in PostgreSQL
 * `integer` columns: a well-typed number past their range would reach the database and fail
 * there (a 500), so every request schema takes its numbers from here and refuses such a number
 * with a 400 on the field. Path and query values arrive as text (`*ParamSchema`: coerced).
 */

/** The largest value of a PostgreSQL `integer` column. */
export const INT32_MAX = 2_147_483_647;
/** The last page number a paged list accepts (pages count from 0). */
export const PAGE_MAX = 100_000;

/** A record id in a JSON body. */
export const idSchema = z
  .number()
  .int(MESSAGE.numeric)
  .min(1, MESSAGE.min)
  .max(INT32_MAX, MESSAGE.max);
/** A record id in a path or query string. */
export const idParamSchema = z.coerce
  .number()
  .int(MESSAGE.numeric)
  .min(1, MESSAGE.min)
  .max(INT32_MAX, MESSAGE.max);
/** The id of a record to save in a path, or 0 to create one. */
export const idOrNewParamSchema = z.coerce
  .number()
  .int(MESSAGE.numeric)
  .min(0, MESSAGE.min)
  .max(INT32_MAX, MESSAGE.max);

/** A page number (from 0) in a path or query string. */
export const pageSchema = z.coerce
  .number()
  .int(MESSAGE.numeric)
  .min(0, MESSAGE.min)
  .max(PAGE_MAX, MESSAGE.max);
/** How many items a page holds, from 1 to the list's own maximum. */
export const pageSizeSchema = (max: number) =>
  z.coerce.number().int(MESSAGE.numeric).min(1, MESSAGE.min).max(max, MESSAGE.max);

/** Money in integer cents of a currency, never negative. */
export const amountSchema = z
  .number()
  .int(MESSAGE.numeric)
  .min(0, MESSAGE.min)
  .max(INT32_MAX, MESSAGE.max);
/** A whole number from `min` up to at most INT32_MAX (quantities, days, codes of a list). */
export const boundedIntSchema = (min: number, max = INT32_MAX) =>
  z.number().int(MESSAGE.numeric).min(min, MESSAGE.min).max(Math.min(max, INT32_MAX), MESSAGE.max);

/**
 * One of a fixed list of numeric codes (a purpose, a reason, a notification type): anything else
 * is refused as invalid, and the published schema lists the codes. A refinement rather than a
 * literal, so the checks of the list or object around it (repeats) still run and report.
 */
export const codeSchema = (codes: readonly number[], message: string = MESSAGE.invalid) =>
  z
    .number()
    .int(message)
    .refine((value) => codes.includes(value), message)
    .meta({ enum: [...codes] });
