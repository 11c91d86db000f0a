import { join } from 'node:path';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { createCaseEvents, type CaseEvents } from './adapters/events/case-events';
import { createMailSender, type MailSender } from './adapters/mail/mail-sender';
import { createRateLimitStore, registerRateLimit } from './adapters/rate-limit/rate-limit';
import { createStorage } from './adapters/storage/create-storage';
import { createLiveUpdates } from './adapters/live/live-updates';
import { createMailWorker, withMailWorker, type MailWorker } from './modules/mail/mail-worker';
import { outboxBacklog } from './modules/mail';
import { attachSocketServer } from './adapters/live/socket-server';
import type { Storage } from './adapters/storage/storage';
import { createViaCepZipLookup } from './adapters/zip-lookup/viacep';
import { noZipLookup, type ZipLookup } from './adapters/zip-lookup/zip-lookup';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import { ensureReferenceData, findDemoAccounts, seedDemoData } from './db/seed';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler';
import { openApiSecurity, registerPermissions } from './http/permissions';
import { loggerOptions, type LogDestination } from './http/request-log';
import { responseSerializerCompiler } from './http/response-serializer';
import { registerTextGuard } from './http/text-guard';
import { registerSecurityHeaders } from './http/security-headers';
import { registerRequestId, requestIdOf } from './http/request-id';
import { createJobRunner, type JobRunner } from './jobs/job-runner';
import { periodicJobs } from './jobs/periodic-jobs';
import { registerMetricsRoute } from './http/metrics-route';
import { createAppMetrics } from './metrics/app-metrics';
import { registerAttachmentRoutes } from './modules/attachments/attachments.routes';
import {
  createAttachmentsService,
  type AttachmentsService,
} from './modules/attachments/attachments.service';
import { registerAvatarRoutes } from './modules/attachments/avatar.routes';
import { registerResumableUploadRoutes } from './modules/attachments/resumable-uploads.routes';
import { createResumableUploads } from './modules/attachments/resumable-uploads.service';
import { createAvatarService } from './modules/attachments/avatar.service';
import { endAllAccountAccess, endSessionsAndResetLinks } from './modules/auth';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { registerCasesRoutes } from './modules/cases/cases.routes';
import { registerApprovalsRoutes } from './modules/approvals/approvals.routes';
import { createApprovalsService } from './modules/approvals/approvals.service';
import { createCasesService } from './modules/cases/cases.service';
import { loadCaseAccess } from './modules/cases';
import { createAuthService } from './modules/auth/auth.service';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerMetadataRoutes } from './modules/metadata/metadata.routes';
import { createMetadataService } from './modules/metadata/metadata.service';
import { registerProfileRoutes } from './modules/profile/profile.routes';
import { createProfileService } from './modules/profile/profile.service';
import { registerShopRoutes } from './modules/shop/shop.routes';
import {
  registerPaymentNoticeRoutes,
  registerPaymentsRoutes,
  registerPublicPaymentReturnRoutes,
  registerReceiptRoute,
} from './modules/payments/payments.routes';
import { createPaymentsService } from './modules/payments/payments.service';
import { registerChatRoutes } from './modules/chat/chat.routes';
import { registerNotificationsRoutes } from './modules/notifications/notifications.routes';
import { createNotificationsService } from './modules/notifications/notifications.service';
import { createChatService } from './modules/chat/chat.service';
import { allowedChannels } from './modules/chat/chat-access';
import { registerPinsRoutes } from './modules/pins/pins.routes';
import { createPinsService } from './modules/pins/pins.service';
import { createPaymentProviders } from './adapters/payments/create-payment-providers';
import { registerStorageRoutes } from './modules/storage/storage.routes';
import { createShopService } from './modules/shop/shop.service';
import { registerProductsRoutes } from './modules/products/products.routes';
import { createProductsService } from './modules/products/products.service';
import { registerCouponsRoutes } from './modules/coupons/coupons.routes';
import { createCouponsService } from './modules/coupons/coupons.service';
import { registerUsersRoutes } from './modules/users/users.routes';
import { registerSettingsRoutes } from './modules/settings/settings.routes';
import { registerPartnersRoutes } from './modules/partners/partners.routes';
import { registerStudentsRoutes } from './modules/students/students.routes';
import { createStudentsService } from './modules/students/students.service';
import { registerAuditRoutes } from './modules/audit/audit.routes';
import { createAuditService } from './modules/audit/audit.service';
import { registerPrivacyRoutes } from './modules/privacy/privacy.routes';
import { createPrivacyService } from './modules/privacy/privacy.service';
import { createPartnersService } from './modules/partners/partners.service';
import { createSettingsService } from './modules/settings/settings.service';
import { createUsersService } from './modules/users/users.service';
import { createPasswordChecks } from './security/password-checks';
import { createAccessTokens } from './security/tokens';
import { registerWebApp } from './web/web-app';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open database (tests use it to arrange and inspect state). */
    database: Database;
    mail: MailSender;
    /** The durable outbox's delivery worker (tests run it directly). */
    mailWorker: MailWorker;
    /** Case changes, published after commit (tests listen here). */
    caseEvents: CaseEvents;
    /** The file store and the stale-upload cleanup (tests call it directly). */
    files: { storage: Storage; cleanup: AttachmentsService['cleanup'] };
    /** The periodic jobs (one runner, one advisory lock per job across instances). */
    jobs: JobRunner;
    /** The shutdown's first step: `/api/ready` answers 503 from `startDraining()` on. */
    lifecycle: Lifecycle;
  }
}

export interface Lifecycle {
  readonly draining: boolean;
  startDraining(): void;
}

export interface BuildOptions {
  /** Replaces the zip-lookup adapter chosen from the config. */
  zipLookup?: ZipLookup;
  /** Where log lines go instead of stdout (tests read what the server logs). */
  logStream?: LogDestination;
}

/** Builds the whole server (plugins, modules, web app) on an open, migrated database. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  // The request log holds method and redacted URL, never headers or bodies (http/request-log.ts).
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    frameworkErrors: answerFrameworkError,
    // The caller's x-request-id when it is a safe short token, else a new id (http/request-id.ts).
    genReqId: requestIdOf,
    // A request that reaches a closing server (pipelined behind one in flight) is served, with
    // `Connection: close`, instead of Fastify's bare 503: the balancer already sends new
    // requests elsewhere, the database stays open until the last request is answered, and a
    // retried POST is not something a client can count on.
    return503OnClosing: false,
  });
  registerRequestId(app);
  const metrics = createAppMetrics();
  // Early: its duration hook must see the routes of every plugin registered after it.
  registerMetricsRoute(app, metrics, config.metricsToken);
  app.setValidatorCompiler(validatorCompiler);
  // Answers are written by a writer compiled from each zod schema (decision 030). Under the tests
  // zod serializes every answer too and any difference fails the request.
  app.setSerializerCompiler(
    responseSerializerCompiler({ verify: process.env.VITEST !== undefined }),
  );

  const storage = createStorage(config);
  let seeded = false;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: join(config.dataDir, 'db'),
    connectionTimeoutMs: config.databaseConnectTimeoutMs,
    onIdleConnectionError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
    // Under the startup lock with the migrations: of instances starting together, one seeds.
    prepare: async (db) => {
      await ensureReferenceData(db);
      seeded = config.seedDemo && (await seedDemoData(db, { storage }));
    },
  });
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());
  if (seeded) app.log.info('empty database: demo data seeded (password Dentflow123)');
  if (config.production) {
    // Seeded now or on an earlier start: whoever reads the README can sign in with these.
    const demoAccounts = await findDemoAccounts(database.db);
    if (demoAccounts.length > 0) {
      app.log.warn(
        { demoAccounts },
        'demo accounts exist (password Dentflow123 unless changed): delete them or change their passwords',
      );
    }
  }

  const mail = createMailSender({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
    logger: app.log,
    // The outbox's log lists each mail's links (live tokens) for a local run, never in production.
    logLinks: !config.production,
  });
  const mailWorker = createMailWorker({ config, db: database.db, mail, log: app.log });
  // idle() also waits for the worker, so a test reads the outbox once the mails are out.
  app.decorate('mail', withMailWorker(mail, mailWorker));
  app.decorate('mailWorker', mailWorker);
  app.addHook('onClose', async () => mail.close());
  // onClose hooks run in reverse order: the worker stops before the sender and the database.
  app.addHook('onClose', async () => mailWorker.stop());
  app.addHook('onReady', async () => mailWorker.start());

  const live = createLiveUpdates();
  const rateLimitStore = createRateLimitStore(config.redisUrl, app.log);
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
    storage,
    // The process's logger; a service logs for a request through `logFor` (context.ts).
    log: app.log,
    caseEvents: createCaseEvents(app.log),
    live,
    passwordChecks: createPasswordChecks(rateLimitStore.counters, config.rateLimit),
    metrics: metrics.port,
  };
  app.decorate('caseEvents', ctx.caseEvents);

  // Before any plugin: child contexts copy the error handler and only see later onRoute hooks.
  const auth = createAuthService(ctx);
  registerPermissions(app, {
    verifyAccessToken: ctx.accessTokens.verify,
    loadSession: auth.loadSession,
  });
  registerErrorHandling(app);
  registerTextGuard(app);
  const sockets = await attachSocketServer(app, ctx, {
    loadSession: auth.loadSession,
    allowedChannels,
  });
  // Before Fastify closes the HTTP server: open WebSockets would keep it waiting.
  app.addHook('preClose', async () => {
    await sockets.close();
  });
  metrics.readFrom({
    pool: database.pool,
    outbox: () => outboxBacklog(database.db),
    liveConnections: sockets.connections,
  });

  const storeOrigin = ctx.storage.browserOrigin ? [ctx.storage.browserOrigin] : [];
  // Built once and read once: @fastify/helmet rebuilt helmet and re-parsed the policy on every
  // request (about 12 % of a trivial request's CPU, docs/performance.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // With S3 the browser uploads to and downloads from the store's origin.
        imgSrc: ["'self'", 'data:', 'blob:', ...storeOrigin],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...storeOrigin],
        frameSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        // Served over plain http on localhost by default; do not force https sub-resources.
        upgradeInsecureRequests: null,
      },
    },
  });
  registerSecurityHeaders(app, securityHeaders);
  await registerRateLimit(app, rateLimitStore);
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
    // Which operations need a bearer token follows from each route's permission rule.
    transform: (input) => {
      const { schema, url } = jsonSchemaTransform(input);
      const { security: _declared, ...rest } = schema as { security?: unknown };
      const security = openApiSecurity(input.route.config?.permission);
      return { schema: security ? { ...rest, security } : rest, url };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  let draining = false;
  app.decorate('lifecycle', {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
  });
  // While draining, clients (and the balancer) open their next request on another connection.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done(null, payload);
  });
  registerHealthRoutes(app, { ping: database.ping, draining: () => draining });
  registerAuthRoutes(app, auth, config);
  registerProfileRoutes(app, createProfileService(ctx), config);
  registerMetadataRoutes(app, createMetadataService(ctx));
  registerShopRoutes(app, createShopService(ctx), config);
  // Approvals sit above cases: the approve move records through the recorder passed in here.
  const approvals = createApprovalsService(ctx);
  const cases = createCasesService(ctx, { approvals: approvals.recorder });
  registerCasesRoutes(app, cases, config);
  registerApprovalsRoutes(app, approvals, config);
  const attachments = createAttachmentsService(ctx);
  registerAttachmentRoutes(app, attachments, config);
  registerResumableUploadRoutes(app, createResumableUploads(ctx, attachments), config);
  const payments = createPaymentsService(ctx, createPaymentProviders(config));
  registerPaymentsRoutes(app, payments);
  registerPublicPaymentReturnRoutes(app, payments, config);
  registerChatRoutes(app, createChatService(ctx));
  registerPinsRoutes(app, createPinsService(ctx));
  // Case-scoped notifications answer 404 for a hidden case by the cases module's rule, passed
  // in here: notifications sit below cases (a case's move notifies in its transaction).
  registerNotificationsRoutes(
    app,
    createNotificationsService(ctx, (caller, caseId) => loadCaseAccess(ctx.db, caller, caseId)),
  );
  await registerPaymentNoticeRoutes(app, payments, config);
  await registerStorageRoutes(app, ctx.storage, (scope) => {
    registerAvatarRoutes(scope, createAvatarService(ctx), config);
    registerReceiptRoute(scope, payments, config);
  });
  app.decorate('files', { storage: ctx.storage, cleanup: attachments.cleanup });
  const jobs = createJobRunner({
    db: database.db,
    driver: database.driver,
    log: app.log,
    jobs: periodicJobs({
      markNearDeadlines: () => cases.markNearDeadlines(),
      cleanupFiles: () => attachments.cleanup(),
      chatDigest: () => mailWorker.runDigest(),
    }),
    onOutcome: metrics.job,
  });
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => jobs.start());
  // onClose hooks run in reverse order: the jobs stop before the mail worker and the database.
  app.addHook('onClose', async () => jobs.stop());
  registerProductsRoutes(app, createProductsService(ctx));
  registerCouponsRoutes(app, createCouponsService(ctx));
  const usersService = createUsersService(ctx, {
    endAllAccountAccess,
    endSessionsAndResetLinks,
    resendVerification: auth.resendVerification,
  });
  registerUsersRoutes(app, usersService);
  registerPrivacyRoutes(app, createPrivacyService(ctx, usersService));
  registerAuditRoutes(app, createAuditService(ctx));
  registerSettingsRoutes(app, createSettingsService(ctx));
  registerPartnersRoutes(app, createPartnersService(ctx));
  registerStudentsRoutes(app, createStudentsService(ctx));

  await registerWebApp(app, config.webDistDir);
  return app;
}
