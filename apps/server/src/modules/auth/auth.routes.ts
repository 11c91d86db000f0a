import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { responses } from '../../http/envelope';
import { callerId, requestMeta } from '../../http/request-meta';
import {
  forgotPasswordBody,
  loginBody,
  loginResult,
  logoutBody,
  refreshBody,
  registerBody,
  resendVerificationBody,
  resetPasswordBody,
  sessionResult,
  verifyAccountBody,
} from './auth.schemas';
import type { AuthService } from './auth.service';
import { signInMeta } from './sign-in-meta';
import { registerTwoFactorRoutes } from './two-factor/two-factor.routes';

const tags = ['auth'];

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limit = (max: number) => ({ max, timeWindow: config.rateLimit.windowMs });

  r.post('/api/v1/auth/register', {
    config: { permission: 'public', rateLimit: limit(config.rateLimit.register) },
    schema: {
      tags,
      summary: 'Create an account and send the verification mail',
      body: registerBody,
      response: responses(z.object({ id: z.number().int() })),
    },
    handler: async (req) => ({ obj: await auth.register(req.body, requestMeta(req)) }),
  });

  r.post('/api/v1/auth/verifyAccount', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: 'Verify an account with the mailed token',
      body: verifyAccountBody,
      response: responses(z.object({ verified: z.literal(true) })),
    },
    handler: async (req) => ({ obj: await auth.verifyAccount(req.body.token, requestMeta(req)) }),
  });

  r.post('/api/v1/auth/resendVerification', {
    config: { permission: 'public', rateLimit: limit(config.rateLimit.forgotPassword) },
    schema: {
      tags,
      summary: 'Send the verification mail again (same answer whether or not the account exists)',
      body: resendVerificationBody,
      response: responses(z.object({ sent: z.literal(true) })),
    },
    handler: async (req) => ({ obj: await auth.resendVerification(req.body.login) }),
  });

  r.post('/api/v1/auth/login', {
    config: { permission: 'public', rateLimit: limit(config.rateLimit.login) },
    schema: {
      tags,
      summary:
        'Log in with email or nickname: a session, or the second-factor step the account needs',
      body: loginBody,
      response: responses(loginResult),
    },
    handler: async (req) => ({ obj: await auth.login(req.body, signInMeta(req)) }),
  });

  registerTwoFactorRoutes(app, auth.twoFactor, config);

  r.post('/api/v1/auth/refresh_token', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: 'Rotate a refresh token and get a new access token',
      body: refreshBody,
      response: responses(sessionResult),
    },
    handler: async (req) => ({
      obj: await auth.refresh(req.body?.refresh_token ?? '', requestMeta(req)),
    }),
  });

  r.delete('/api/v1/auth/logout', {
    config: { permission: 'authenticated' },
    schema: {
      tags,
      summary: 'Revoke the session of a refresh token',
      body: logoutBody,
      response: responses(z.object({ loggedOut: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await auth.logout(callerId(req), req.body.refresh_token, requestMeta(req)),
    }),
  });

  r.post('/api/v1/auth/forgotPassword', {
    config: { permission: 'public', rateLimit: limit(config.rateLimit.forgotPassword) },
    schema: {
      tags,
      summary: 'Mail a password reset link (same answer whether or not the account exists)',
      body: forgotPasswordBody,
      response: responses(z.object({ sent: z.literal(true) })),
    },
    handler: async (req) => ({ obj: await auth.forgotPassword(req.body.email) }),
  });

  r.post('/api/v1/auth/resetPassword', {
    config: { permission: 'public' },
    schema: {
      tags,
      summary: 'Set a new password with a reset token; revokes every session',
      body: resetPasswordBody,
      response: responses(z.object({ reset: z.literal(true) })),
    },
    handler: async (req) => ({
      obj: await auth.resetPassword(req.body.token, req.body.password, requestMeta(req)),
    }),
  });
}
