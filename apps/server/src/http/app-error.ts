import type { z } from 'zod';

/** Stable error codes of the API envelope; each has a message in the `errors` catalogue under `api.<CODE>`. */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'BAD_REQUEST'
  | 'EMAIL_TAKEN'
  | 'NICKNAME_TAKEN'
  | 'INVALID_COUPON'
  | 'INVALID_TOKEN'
  | 'ACCOUNT_NOT_VERIFIED'
  | 'INVALID_CREDENTIALS'
  | 'RATE_LIMITED'
  | 'NOT_AUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'INVALID_NICKNAME'
  | 'WRONG_PASSWORD'
  | 'INVALID_ZIP'
  | 'ZIP_NOT_FOUND'
  | 'ZIP_LOOKUP_UNAVAILABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNKNOWN_ATTACHMENT_KIND'
  | 'FILE_TYPE_NOT_ALLOWED'
  | 'FILE_TOO_LARGE'
  | 'UPLOAD_NOT_FOUND'
  | 'UPLOAD_SIZE_MISMATCH'
  | 'FILE_CONTENT_MISMATCH'
  | 'UPLOAD_POLICY_INVALID'
  | 'UPLOAD_POLICY_EXPIRED'
  | 'UPLOAD_ALREADY_RECEIVED'
  | 'ATTACHMENT_ACTION_NOT_ALLOWED'
  | 'CASE_CHANGED'
  | 'INVALID_TRANSITION'
  | 'CASE_CHECKS_FAILED'
  | 'CASE_ARCHIVED'
  | 'CASE_CURRENCY_LOCKED'
  | 'SERVICE_PAID'
  | 'CASE_HAS_TRANSACTION'
  | 'SERVICE_IN_TRANSACTION'
  | 'CASE_NOT_ORDERABLE'
  | 'CASE_NOT_DISPATCHABLE'
  | 'ALREADY_DISPATCHED'
  | 'PRODUCT_UNAVAILABLE'
  | 'COUPON_NOT_APPLICABLE'
  | 'CODE_TAKEN'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'SHIPPING_UNAVAILABLE'
  | 'NOT_AUTHORIZED_YET'
  | 'TRANSACTION_ERROR'
  | 'PAID_METHOD_ERROR'
  | 'PAYMENT_METHOD_UNAVAILABLE'
  | 'TRANSACTION_STATE'
  | 'NOTHING_TO_PAY'
  | 'CHAT_MESSAGE_DELETED'
  | 'SELF_LOCKOUT'
  | 'ALREADY_VERIFIED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

/**
 * An expected failure: the central error handler turns it into `{error, code, fields?}` with the
 * message translated to the caller's language. `fields` maps a field path to an `errors` catalogue key.
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
