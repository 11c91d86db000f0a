import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LogScope } from '../context';
import type { AccessTokenSubject } from '../security/tokens';
import {
  isAdmin,
  isClinic,
  isClinicOrDoctorOnly,
  isDoctor,
  isInstructor,
  isPartner,
  isPlanner,
  isPrinter,
  isSupervisor,
  sessionRoles,
} from '@dentflow/domain';
import { AppError } from './app-error';

/**
 * Who may call a route (docs/permissions.md). `public`: anyone, a bearer token is
 * still read when present; `authenticated`: any verified user; the others are the role
 * predicates from @dentflow/domain. Per-record rules live in services.
 */
export const PERMISSIONS = {
  public: () => true,
  authenticated: () => true,
  admin: isAdmin,
  supervisor: isSupervisor,
  planner: isPlanner,
  clinic: isClinic,
  doctor: isDoctor,
  printer: isPrinter,
  partner: isPartner,
  instructor: isInstructor,
  clinicOrDoctorOnly: isClinicOrDoctorOnly,
} as const satisfies Record<string, (roles: readonly string[]) => boolean>;
export type Permission = keyof typeof PERMISSIONS;

export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);

/**
 * The OpenAPI security requirement of a route with this rule: a bearer token unless the route is
 * public (a route without a rule is refused to everyone, so it needs one too). The document takes
 * it from here, so it cannot disagree with what the server enforces.
 */
export const openApiSecurity = (permission: unknown): { bearer: string[] }[] | undefined =>
  permission === 'public' ? undefined : [{ bearer: [] }];

/** The signed-in caller, resolved from the bearer access token; `log` is its request's. */
export interface AuthContext extends LogScope {
  userId: number;
  /** The refresh-token family this request's access token was issued for. */
  sessionId: string;
  roles: string[];
  language: string | undefined;
  /** The request's address, for audit rows written deep in a service (absent off HTTP). */
  ip?: string | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: Permission;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** Every route with its permission rule, for the test that fails on a route without one. */
    routeRules: { method: string; url: string; permission: Permission | undefined }[];
  }
}

/**
 * Routes outside the API (the web app's files and SPA fallback) and the OpenAPI pages are public
 * by nature; they are given that rule explicitly here. Every `/api` route must declare its own.
 */
const IMPLICITLY_PUBLIC = (url: string) => !url.startsWith('/api') || url.startsWith('/api/docs');

export interface PermissionOptions {
  /** The user id of a valid access token, else null. */
  verifyAccessToken(token: string): Promise<AccessTokenSubject | null>;
  /** The session of a verified user, else null (deleted or unverified accounts lose access). */
  loadSession(subject: AccessTokenSubject): Promise<AuthContext | null>;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** Registers the permission check on every route; a route without a rule is refused (fail closed). */
export function registerPermissions(app: FastifyInstance, options: PermissionOptions): void {
  app.decorateRequest('auth', null);
  const routeRules: FastifyInstance['routeRules'] = [];
  app.decorate('routeRules', routeRules);

  app.addHook('onRoute', (route) => {
    if (route.config?.permission === undefined && IMPLICITLY_PUBLIC(route.url)) {
      route.config = { ...route.config, permission: 'public' };
    }
    const permission = route.config?.permission;
    for (const method of [route.method].flat()) {
      routeRules.push({
        method,
        url: route.url,
        permission: isPermission(permission) ? permission : undefined,
      });
    }
  });

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const permission = request.routeOptions.config.permission;
    if (!isPermission(permission)) {
      request.log.error({ url: request.routeOptions.url }, 'route has no permission rule');
      throw new AppError(403, 'FORBIDDEN');
    }
    const token = bearerToken(request);
    if (token) {
      const subject = await options.verifyAccessToken(token);
      const session = subject === null ? null : await options.loadSession(subject);
      request.auth = session && { ...session, ip: request.ip, log: request.log };
    }
    if (permission === 'public') return;
    if (!request.auth) throw new AppError(401, 'NOT_AUTHORIZED');
    if (!PERMISSIONS[permission](sessionRoles(request.auth.roles))) {
      throw new AppError(403, 'FORBIDDEN');
    }
  });
}
