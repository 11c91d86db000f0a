import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isOneOf, NAMESPACES, translate, type ErrorCode, type Language } from '@dentflow/domain';
import { isAppError } from './app-error';
import { isDatabaseUnavailable } from './database-unavailable';
import { requestLanguage } from './language';
import { isQueryError } from '../db/client';

interface ErrorBody {
  error: string;
  code: ErrorCode;
  fields?: Record<string, string>;
}

/** A validation message: a catalogue key from the schema, or zod's default mapped to one. */
function fieldMessageKey(issue: { keyword: string; message?: string }): string {
  const message = issue.message ?? '';
  if (message.startsWith('validation.')) return message;
  switch (issue.keyword) {
    case 'invalid_type':
      return /received undefined|received null/.test(message)
        ? 'validation.required'
        : 'validation.invalid';
    case 'too_small':
      return 'validation.min';
    case 'too_big':
      return 'validation.max';
    case 'unrecognized_keys':
      return 'validation.unknownField';
    default:
      return 'validation.invalid';
  }
}

/** A field's message key: in the `errors` catalogue, or `<namespace>:<key>` for another one. */
function translateFieldKey(language: Language, key: string): string {
  const [namespace, path] = key.includes(':') ? key.split(':', 2) : ['errors', key];
  return isOneOf(NAMESPACES, namespace) ? translate(language, namespace, path!) : key;
}

function translatedFields(
  language: Language,
  fields: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([field, key]) => [field, translateFieldKey(language, key)]),
  );
}

function body(language: Language, code: ErrorCode, fields?: Record<string, string>): ErrorBody {
  const error = translate(language, 'errors', `api.${code}`);
  return fields && Object.keys(fields).length > 0
    ? { error, code, fields: translatedFields(language, fields) }
    : { error, code };
}

/** Fastify's own 4xx errors (bad JSON, wrong content type, too large) keep their status. */
function frameworkClientError(
  error: FastifyError,
): { status: number; code: ErrorCode } | undefined {
  const status = error.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  if (status === 413) return { status, code: 'PAYLOAD_TOO_LARGE' };
  if (status === 415) return { status, code: 'UNSUPPORTED_MEDIA_TYPE' };
  if (status === 404) return { status, code: 'NOT_FOUND' };
  if (status === 429) return { status, code: 'RATE_LIMITED' };
  return { status: 400, code: 'BAD_REQUEST' };
}

/**
 * What may be logged of an unexpected error. A failed query's message carries its parameters
 * (emails, profile data, password hashes), so of a database error only its type, SQLSTATE code
 * and the database's own message are kept.
 */
function loggable(error: Error): Error | Record<string, unknown> {
  if (!isQueryError(error)) return error;
  const cause = error.cause as { name?: string; code?: string; message?: string } | undefined;
  return { type: cause?.name ?? error.name, code: cause?.code, message: cause?.message };
}

/**
 * The one error model: zod validation → 400 VALIDATION_ERROR with translated fields,
 * AppError → its status and code, Fastify client errors → 4xx, a database that cannot be reached
 * → 503 SERVICE_UNAVAILABLE, anything else → 500 with a
 * generic message (the real error is logged, never sent).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.split('/').filter(Boolean).join('.');
        const keys = (issue.params as { keys?: unknown }).keys;
        if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
          for (const key of keys)
            fields[path ? `${path}.${String(key)}` : String(key)] ??= 'validation.unknownField';
        } else {
          fields[path || (error.validationContext ?? 'body')] ??= fieldMessageKey(issue);
        }
      }
      return reply.status(400).send(body(language, 'VALIDATION_ERROR', fields));
    }
    if (isAppError(error)) {
      // A known condition (e.g. no zip provider configured): its cause is logged where it arose.
      if (error.statusCode >= 500) request.log.warn({ code: error.code }, 'request refused');
      return reply.status(error.statusCode).send(body(language, error.code, error.fields));
    }
    const clientError = frameworkClientError(error);
    if (clientError) {
      request.log.info({ err: error }, 'client error');
      return reply.status(clientError.status).send(body(language, clientError.code));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: loggable(error) }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(body(language, 'SERVICE_UNAVAILABLE'));
    }
    request.log.error({ err: loggable(error) }, 'unexpected error');
    return reply.status(500).send(body(language, 'INTERNAL_ERROR'));
  });
}

/**
 * Fastify's `frameworkErrors`: what it refuses before any route runs — a path that is not valid
 * URL encoding, a path segment longer than the router allows — gets the same envelope as every
 * other bad request instead of Fastify's own untranslated body.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // Fastify types this handler as returning void; handing back the (thenable) reply would let it
  // be mistaken for a promise to await.
  request.log.info({ code: error.code }, 'client error');
  reply.status(400).send(body(requestLanguage(request), 'BAD_REQUEST'));
}

export { body as errorBody };
