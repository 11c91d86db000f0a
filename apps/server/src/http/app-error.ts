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
  | 'INTERNAL_ERROR';

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

/** A validation failure found by a service rather than by the route schema. */
export const validationError = (fields: Record<string, string>) =>
  new AppError(400, 'VALIDATION_ERROR', fields);
