import type { FastifyRequest } from 'fastify';
import { platformOf } from '@dentflow/domain';
import { requestMeta } from '../../http/request-meta';
import type { SignInMeta } from './session-start';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The request's meta plus the platform it signs in from (User-Agent and client hints). */
export const signInMeta = (req: FastifyRequest): SignInMeta => ({
  ...requestMeta(req),
  platform: platformOf({
    userAgent: header(req, 'user-agent'),
    platformHint: header(req, 'sec-ch-ua-platform'),
    mobileHint: header(req, 'sec-ch-ua-mobile'),
  }),
});
