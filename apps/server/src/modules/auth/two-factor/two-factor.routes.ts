import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../../config';
import { responses } from '../../../http/envelope';
import { caller, callerId, requestMeta } from '../../../http/request-meta';
import { signInMeta } from '../sign-in-meta';
import {
  challengeBody,
  codeBody,
  disableBody,
  loginCodeBody,
  loginEnrolBody,
  recoveryCodesResult,
  secondFactorSessionResult,
  setupResult,
  statusResult,
} from './two-factor.schemas';
import type { TwoFactorService } from './two-factor.service';

const tags = ['auth'];

/**
 * The second step of a login (public, authorized by the login's challenge token and limited like
 * the login) and the signed-in user's own two-factor settings (profile → Security).
 */
export function registerTwoFactorRoutes(
  app: FastifyInstance,
  twoFactor: TwoFactorService,
  config: Config,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const loginLimit = { max: config.rateLimit.login, timeWindow: config.rateLimit.windowMs };
  const remember = (req: FastifyRequest<{ Body: { rememberDevice?: boolean | undefined } }>) =>
    req.body.rememberDevice ?? false;

  r.post('/api/v1/auth/twoFactor/verify', {
    config: { permission: 'public', rateLimit: loginLimit },
    schema: {
      tags,
      summary: "A login's second step: an authenticator or recovery code opens the session",
      body: loginCodeBody,
      response: responses(secondFactorSessionResult),
    },
    handler: async (req) => ({
      obj: await twoFactor.completeLogin(
        { challenge: req.body.challenge, code: req.body.code, rememberDevice: remember(req) },
        signInMeta(req),
      ),
    }),
  });

  r.post('/api/v1/auth/twoFactor/setup', {
    config: { permission: 'public', rateLimit: loginLimit },
    schema: {
      tags,
      summary: 'A new authenticator secret for the enrolment a login asked for',
      body: challengeBody,
      response: responses(setupResult),
    },
    handler: async (req) => ({ obj: await twoFactor.loginSetup(req.body.challenge) }),
  });

  r.post('/api/v1/auth/twoFactor/enrol', {
    config: { permission: 'public', rateLimit: loginLimit },
    schema: {
      tags,
      summary: "Confirms a login's enrolment with a first code: recovery codes and the session",
      body: loginEnrolBody,
      response: responses(secondFactorSessionResult),
    },
    handler: async (req) => ({
      obj: await twoFactor.loginEnrol(
        { challenge: req.body.challenge, code: req.body.code, rememberDevice: remember(req) },
        signInMeta(req),
      ),
    }),
  });

  r.get('/api/v1/profile/twoFactor/get', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "The caller's two-factor state",
      response: responses(statusResult),
    },
    handler: async (req) => ({
      obj: await twoFactor.status(callerId(req), caller(req).roles),
    }),
  });

  r.post('/api/v1/profile/twoFactor/setup', {
    config: { permission: 'authenticated', rateLimit: loginLimit },
    schema: {
      tags,
      summary: 'A new authenticator secret for the caller (replaces an unconfirmed one)',
      body: z.object({}).strict().optional(),
      response: responses(setupResult),
    },
    handler: async (req) => ({ obj: await twoFactor.setup(callerId(req)) }),
  });

  r.post('/api/v1/profile/twoFactor/enable', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary:
        "Turns the caller's two-factor on with a first code; answers the recovery codes once",
      body: codeBody,
      response: responses(recoveryCodesResult),
    },
    handler: async (req) => ({
      obj: await twoFactor.enable(callerId(req), req.body.code, requestMeta(req)),
    }),
  });

  r.post('/api/v1/profile/twoFactor/disable', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: "Turns the caller's two-factor off (password and code; not for admins, supervisors)",
      body: disableBody,
      response: responses(z.object({ disabled: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await twoFactor.disable(callerId(req), req.body, requestMeta(req)),
    }),
  });

  r.post('/api/v1/profile/twoFactor/recoveryCodes', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'A new set of recovery codes for the caller (the old set stops working)',
      body: codeBody,
      response: responses(recoveryCodesResult),
    },
    handler: async (req) => ({
      obj: await twoFactor.regenerateRecoveryCodes(callerId(req), req.body.code, requestMeta(req)),
    }),
  });
}
