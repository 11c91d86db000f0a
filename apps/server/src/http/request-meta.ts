import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../context';
import { AppError } from './app-error';
import type { AuthContext } from './permissions';
import { requestLanguage } from './language';

export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? 'local',
  language: requestLanguage(request),
  log: request.log,
});

/** The signed-in caller; routes with a non-public permission always have one. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError(401, 'NOT_AUTHORIZED');
  return request.auth;
}

/** The signed-in user's id. */
export const callerId = (request: FastifyRequest): number => caller(request).userId;
