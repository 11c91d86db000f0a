import { join } from 'node:path';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { createMailSender, type MailSender } from './adapters/mail/mail-sender';
import { registerRateLimit } from './adapters/rate-limit/rate-limit';
import { createViaCepZipLookup } from './adapters/zip-lookup/viacep';
import { noZipLookup, type ZipLookup } from './adapters/zip-lookup/zip-lookup';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import { ensureReferenceData, seedDemoData } from './db/seed';
import { registerErrorHandling } from './http/error-handler';
import { registerPermissions } from './http/permissions';
import { registerTextGuard } from './http/text-guard';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerMetadataRoutes } from './modules/metadata/metadata.routes';
import { createMetadataService } from './modules/metadata/metadata.service';
import { registerProfileRoutes } from './modules/profile/profile.routes';
import { createProfileService } from './modules/profile/profile.service';
import { registerShopRoutes } from './modules/shop/shop.routes';
import { createShopService } from './modules/shop/shop.service';
import { createAccessTokens } from './security/tokens';
import { registerWebApp } from './web/web-app';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open database (tests use it to arrange and inspect state). */
    database: Database;
    mail: MailSender;
  }
}

export interface BuildOptions {
  /** Replaces the zip-lookup adapter chosen from the config. */
  zipLookup?: ZipLookup;
}

/** Builds the whole server (plugins, modules, web app) on an open, migrated database. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  // Pino's default request serializer logs method and URL, never headers or bodies (no tokens).
  const app = Fastify({ logger: { level: config.logLevel }, trustProxy: config.trustProxy });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: join(config.dataDir, 'db'),
    onIdleConnectionError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
  });
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());
  await ensureReferenceData(database.db);
  if (config.seedDemo && (await seedDemoData(database.db))) {
    app.log.info('empty database: demo data seeded (password Dentflow123)');
  }

  const mail = createMailSender({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    logger: app.log,
  });
  app.decorate('mail', mail);
  app.addHook('onClose', async () => mail.close());

  const ctx: AppContext = {
    config,
    db: database.db,
    mail,
    accessTokens: createAccessTokens(config.jwtSecret),
    zipLookup:
      options.zipLookup ??
      (config.zipLookupUrl
        ? createViaCepZipLookup(config.zipLookupUrl, config.zipLookupTimeoutMs)
        : noZipLookup),
    log: app.log,
  };

  // Before any plugin: child contexts copy the error handler and only see later onRoute hooks.
  const auth = createAuthService(ctx);
  registerPermissions(app, {
    verifyAccessToken: ctx.accessTokens.verify,
    loadSession: auth.loadSession,
  });
  registerErrorHandling(app);
  registerTextGuard(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        // Served over plain http on localhost by default; do not force https sub-resources.
        upgradeInsecureRequests: null,
      },
    },
  });
  await registerRateLimit(app, config.redisUrl);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Dentflow API',
        version: '1.0.0',
        description: 'Envelope: {obj} or {error, code, fields?}',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerHealthRoutes(app, database.ping);
  registerAuthRoutes(app, auth, config);
  registerProfileRoutes(app, createProfileService(ctx), config);
  registerMetadataRoutes(app, createMetadataService(ctx));
  registerShopRoutes(app, createShopService(ctx));

  await registerWebApp(app, config.webDistDir);
  return app;
}
