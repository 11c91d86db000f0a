import type { z } from 'zod';
import type { ErrorCode } from '@dentflow/domain';

/**
 * An expected failure: the central error handler turns it into `{error, code, fields?}` with the
 * message translated to the caller's language. `code` is one of the domain's `ERROR_CODES`;
 * `fields` maps a field path to an `errors` catalogue key.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly fields?: Record<string, string>,
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/**
 * zod issues of a value checked inside a service → field paths under `prefix` with `errors`
 * catalogue keys (a schema's own `validation.*` message, else zod's kind of issue mapped to one).
 */
export function zodIssueFields(
  prefix: string,
  issues: readonly z.core.$ZodIssue[],
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = [prefix, ...issue.path.map(String)].join('.');
    let key = 'validation.invalid';
    if (issue.message.startsWith('validation.')) key = issue.message;
    else if (issue.code === 'too_small') key = 'validation.min';
    else if (issue.code === 'too_big') key = 'validation.max';
    else if (issue.code === 'invalid_type' && issue.input === undefined)
      key = 'validation.required';
    else if (issue.code === 'unrecognized_keys') key = 'validation.unknownField';
    fields[path] ??= key;
  }
  return fields;
}

/** A validation failure found by a service rather than by the route schema. */
export const validationError = (fields: Record<string, string>) =>
  new AppError(400, 'VALIDATION_ERROR', fields);
