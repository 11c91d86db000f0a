import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../context';
import { AppError } from './app-error';
import { requestLanguage } from './language';

export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? 'local',
  language: requestLanguage(request),
});

/** The signed-in user's id; routes with a non-public permission always have one. */
export function callerId(request: FastifyRequest): number {
  if (!request.auth) throw new AppError(401, 'NOT_AUTHORIZED');
  return request.auth.userId;
}
