import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { TOTP, totpStep } from '@dentflow/domain';
import { SMTPServer } from 'smtp-server';
import { buildApp, type BuildOptions } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase } from '../../src/db/client';
import { ensureReferenceData, seedDemoData } from '../../src/db/seed';
import { base32Decode, hotp } from '../../src/security/totp';

export const ADMIN_PG_URL =
  process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * What a fresh test database starts from: 'demo' a migrated database with the demo data,
 * 'bare' a migrated one with only the reference data (`SEED_DEMO=false`), 'empty' nothing (the
 * app migrates it on boot).
 */
export type TestDatabaseTemplate = 'demo' | 'bare' | 'empty';

/**
 * A fresh PostgreSQL database for one test file; `drop()` removes it. With a template other than
 * 'empty' the database is a copy (`CREATE DATABASE … TEMPLATE`) of a template database that the
 * first test file of a run migrates and seeds once, instead of every file migrating and seeding
 * its own. `TEST_DB_TEMPLATE=off` turns the copies off (every file migrates).
 */
export async function createTestDatabase(
  options: {
    template?: TestDatabaseTemplate;
    /** Tests of this helper only: a template of its own, and no dropping of stale ones. */
    fingerprint?: string;
  } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `dentflow_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const template = process.env.TEST_DB_TEMPLATE === 'off' ? 'empty' : (options.template ?? 'empty');
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  try {
    // Databases left by an interrupted run (older than an hour) are removed on the way.
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'dentflow_test_%'",
    );
    for (const { datname } of rows) {
      const createdAt = Number(datname.split('_')[2]);
      if (Number.isFinite(createdAt) && Date.now() - createdAt > 3600_000) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
    if (template === 'empty') await admin.query(`CREATE DATABASE "${name}"`);
    else await cloneTemplate(admin, template, name, options.fingerprint);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(name),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One advisory lock (on the admin database) guards building, copying and dropping templates. */
const TEMPLATE_LOCK = 4_711_020_601;
export const TEMPLATE_PREFIX = 'dentflow_template_';
/** Templates of other sources are dropped once this old (a run still using one keeps it). */
const STALE_TEMPLATE_MS = 15 * 60_000;
export const TEMPLATE_READY_MARK = 'dentflow test template ready at ';
const READY = TEMPLATE_READY_MARK;

/**
 * The fingerprint of everything that decides a template's content: the migrations, the database
 * code and seeds (with the domain rules they call), and the UTC day (seeded dates are relative to
 * the moment of seeding, so a template is rebuilt at least daily).
 */
export function templateFingerprint(): string {
  const serverDir = join(import.meta.dirname, '..', '..');
  const roots = [
    join(serverDir, 'src', 'db'),
    join(serverDir, 'src', 'security', 'passwords.ts'),
    join(serverDir, '..', '..', 'packages', 'domain', 'src'),
  ];
  const hash = createHash('sha256').update(new Date().toISOString().slice(0, 10));
  const files = roots.flatMap((root) => listFiles(root)).sort();
  for (const file of files) {
    if (/\.test\.tsx?$/.test(file) || !/\.(ts|sql|json)$/.test(file)) continue;
    if (file.includes(`${sep}i18n${sep}`)) continue;
    hash.update(relative(serverDir, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function listFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    listFiles(join(path, entry.name)),
  );
}

/**
 * `CREATE DATABASE name TEMPLATE <template>`, building the template first when it does not exist
 * yet. Copies run under a shared lock, so many test files copy at once; building (and dropping
 * stale templates) takes the lock exclusively. A template allows no connections once built: a
 * copy fails while anyone is connected to its source.
 */
async function cloneTemplate(
  admin: pg.Client,
  kind: Exclude<TestDatabaseTemplate, 'empty'>,
  name: string,
  fingerprintOverride?: string,
): Promise<void> {
  const fingerprint = fingerprintOverride ?? templateFingerprint();
  const template = templateName(fingerprint, kind);
  await admin.query('SELECT pg_advisory_lock_shared($1)', [TEMPLATE_LOCK]);
  try {
    if (await isTemplateReady(admin, template)) {
      await copyDatabase(admin, template, name);
      return;
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock_shared($1)', [TEMPLATE_LOCK]);
  }
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    // Another test file may have built it while this one waited for the lock.
    if (!(await isTemplateReady(admin, template))) {
      await buildTemplate(admin, template, kind);
      if (!fingerprintOverride) await dropStaleTemplates(admin, fingerprint);
    }
    await copyDatabase(admin, template, name);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
  }
}

export const templateName = (fingerprint: string, kind: Exclude<TestDatabaseTemplate, 'empty'>) =>
  `${TEMPLATE_PREFIX}${fingerprint}_${kind}`;

/** Runs `fn` on an admin connection holding the template lock exclusively. */
export async function withTemplateLock<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    return await fn(admin);
  } finally {
    await admin.end(); // ending the session releases its advisory locks
  }
}

/** Retries while a session is still leaving the template (e.g. an autovacuum worker). */
async function copyDatabase(admin: pg.Client, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

async function templateComments(admin: pg.Client, prefix = TEMPLATE_PREFIX) {
  const { rows } = await admin.query<{ datname: string; comment: string | null }>(
    `SELECT datname, shobj_description(oid, 'pg_database') AS comment
       FROM pg_database WHERE datname LIKE $1`,
    [`${prefix}%`],
  );
  return rows;
}

async function isTemplateReady(admin: pg.Client, template: string): Promise<boolean> {
  const rows = await templateComments(admin);
  return rows.some((row) => row.datname === template && row.comment?.startsWith(READY));
}

/** Migrates (and seeds) a new template through the app's own code, then closes it to connections. */
async function buildTemplate(
  admin: pg.Client,
  template: string,
  kind: Exclude<TestDatabaseTemplate, 'empty'>,
): Promise<void> {
  // A template without the ready mark was left half-built by an interrupted run.
  await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${template}"`);
  const scratch = mkdtempSync(join(tmpdir(), 'dentflow-template-'));
  try {
    const database = await openDatabase({
      databaseUrl: databaseUrl(template),
      pgliteDir: join(scratch, 'db'),
    });
    try {
      await ensureReferenceData(database.db);
      if (kind === 'demo') await seedDemoData(database.db);
    } finally {
      await database.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  // Nobody may connect from now on; end any session that is still there (none should be).
  await admin.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`);
  await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [template],
  );
  await admin.query(`COMMENT ON DATABASE "${template}" IS '${READY}${new Date().toISOString()}'`);
}

/**
 * Drops the templates of other fingerprints that are older than STALE_TEMPLATE_MS (or were never
 * finished). Call with the template lock held exclusively.
 */
export async function dropStaleTemplates(
  admin: pg.Client,
  fingerprint: string,
  /** The templates' name prefix (tests of this helper use their own). */
  prefix = TEMPLATE_PREFIX,
): Promise<void> {
  for (const { datname, comment } of await templateComments(admin, prefix)) {
    if (datname.startsWith(`${prefix}${fingerprint}_`)) continue;
    const builtAt = comment?.startsWith(READY) ? Date.parse(comment.slice(READY.length)) : NaN;
    if (Number.isFinite(builtAt) && Date.now() - builtAt < STALE_TEMPLATE_MS) continue;
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /**
   * Every `.eml` in the outbox, oldest first, as text — once the mails committed to the mail
   * outbox (and those handed off with `app.mail.dispatch`) are written: `app.mail.idle()` waits
   * for the outbox worker too.
   */
  outbox(): Promise<string[]>;
  close(): Promise<void>;
}

const GENEROUS_LIMITS = {
  RATE_LIMIT_LOGIN_MAX: '10000',
  RATE_LIMIT_REGISTER_MAX: '10000',
  RATE_LIMIT_FORGOT_PASSWORD_MAX: '10000',
  RATE_LIMIT_NICKNAME_MAX: '10000',
  RATE_LIMIT_CASE_MOVE_MAX: '10000',
  RATE_LIMIT_PASSWORD_ACCOUNT_MAX: '10000',
  RATE_LIMIT_PASSWORD_ADDRESS_MAX: '10000',
};

/**
 * PayPal and PagBank configured (so the shop offers them) at an address nothing listens on: a
 * test that reaches a provider starts the sandbox and points these at it; '' turns one off.
 */
const UNREACHABLE_PROVIDERS = {
  PAYPAL_CLIENT_ID: 'test-client',
  PAYPAL_CLIENT_SECRET: 'test-secret',
  PAYPAL_API_URL: 'http://127.0.0.1:9',
  PAGBANK_TOKEN: 'test-pagbank-token',
  PAGBANK_API_URL: 'http://127.0.0.1:9',
  PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
};

/** Boots buildApp() on a fresh PostgreSQL database (or PGlite when `pglite` is set). */
export async function startTestApp(
  env: Record<string, string> = {},
  options: BuildOptions & {
    pglite?: boolean;
    dataDir?: string;
    /** Another test app's database (a second instance on it); not dropped on close. */
    databaseUrl?: string;
  } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dentflow-test-'));
  const base = {
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://dentflow.test',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...GENEROUS_LIMITS,
    ...UNREACHABLE_PROVIDERS,
  };
  // The copy matches what this app would seed on an empty database (SEED_DEMO as configured).
  const database =
    options.pglite || options.databaseUrl
      ? undefined
      : await createTestDatabase({
          template: loadConfig({ ...base, ...env }).seedDemo ? 'demo' : 'bare',
        });
  const config = loadConfig({
    ...base,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...env,
  });
  const app = await buildApp(config, options);
  await app.ready();
  return {
    app,
    config,
    dataDir,
    async outbox() {
      await app.mail.idle();
      const dir = join(dataDir, 'outbox');
      let files: string[];
      try {
        files = readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort();
      } catch {
        return [];
      }
      return files.map((f) => decodeQuotedPrintable(readFileSync(join(dir, f), 'utf8')));
    },
    async close() {
      await app.close();
      await database?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's log lines, captured (pass `stream` as the `logStream` option, set LOG_LEVEL). */
export interface CapturedLog {
  stream: { write(line: string): void };
  /** Every line written so far, as written (JSON). */
  lines: string[];
  /** The lines parsed. */
  entries(): Record<string, unknown>[];
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Undoes quoted-printable soft breaks and escapes so links and accents can be read from a raw mail. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The JSON body of an injected response. */
export const json = <T = Record<string, unknown>>(response: LightMyRequestResponse): T =>
  response.json<T>();

export interface Session {
  accessToken: string;
  refreshToken: string;
  profile: { id: number; roles: string[]; [key: string]: unknown };
}

/**
 * What the login helper remembers of an account's second factor on one app: the authenticator
 * secret it enrolled and the remembered-device token it got, like a user's phone and browser.
 */
interface SecondFactorMemory {
  secret?: Buffer;
  deviceToken?: string;
  lastStep?: number;
  /** The unused recovery codes enrolment gave, for logins faster than one code per step. */
  recoveryCodes?: string[];
}
/**
 * What the helper knows of each account's second factor, per database: several app instances on
 * one database (the live-update tests) share the enrolment one of them made.
 */
const secondFactors = new Map<string, Map<string, SecondFactorMemory>>();
const databaseNames = new WeakMap<FastifyInstance, Promise<string>>();
const loginsInFlight = new WeakMap<FastifyInstance, Map<string, Promise<unknown>>>();

function databaseOf(app: FastifyInstance): Promise<string> {
  let name = databaseNames.get(app);
  if (!name) {
    name = app.database.db
      .execute(sql`select current_database() as name`)
      .then((result) => String((result as unknown as { rows: { name: string }[] }).rows[0]!.name));
    databaseNames.set(app, name);
  }
  return name;
}

async function memoryOf(app: FastifyInstance, loginName: string): Promise<SecondFactorMemory> {
  const database = await databaseOf(app);
  let byLogin = secondFactors.get(database);
  if (!byLogin) secondFactors.set(database, (byLogin = new Map()));
  const key = loginName.trim().toLowerCase();
  let memory = byLogin.get(key);
  if (!memory) byLogin.set(key, (memory = {}));
  return memory;
}

/**
 * A fresh code of the secret for a step after `lastStep` (each code works once): the current
 * step, or the next one the server also accepts, else after waiting for the step to pass.
 */
export async function nextTotpCode(
  secret: Buffer,
  lastStep?: number,
): Promise<{ code: string; step: number }> {
  for (;;) {
    const now = totpStep(Date.now());
    const step = lastStep === undefined || lastStep < now ? now : lastStep + 1;
    if (step <= now + TOTP.window) return { code: hotp(secret, step), step };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Logs in through the API as a user would, second factor included: an admin or supervisor
 * without one enrols (the helper keeps the secret and remembers the device), one with it sends
 * the remembered device or a code. Logins of one account on one app run one after another.
 */
export async function login(
  app: FastifyInstance,
  loginName: string,
  password = 'Dentflow123',
  remember = false,
): Promise<Session> {
  let inFlight = loginsInFlight.get(app);
  if (!inFlight) loginsInFlight.set(app, (inFlight = new Map()));
  const key = loginName.trim().toLowerCase();
  const previous = inFlight.get(key) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(() => loginOnce(app, loginName, password, remember));
  inFlight.set(key, next);
  return next;
}

async function loginOnce(
  app: FastifyInstance,
  loginName: string,
  password: string,
  remember: boolean,
): Promise<Session> {
  const memory = await memoryOf(app, loginName);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: {
      login: loginName,
      password,
      remember,
      ...(memory.deviceToken ? { devices: [memory.deviceToken] } : {}),
    },
  });
  if (response.statusCode !== 200) {
    throw new Error(`login ${loginName} failed: ${response.statusCode} ${response.body}`);
  }
  const answer = json<{ obj: Session | LoginChallenge }>(response).obj;
  if (!('twoFactor' in answer)) return answer;
  const { challenge, step } = answer.twoFactor;
  const post = async (url: string, payload: Record<string, unknown>) => {
    const reply = await app.inject({ method: 'POST', url, payload });
    if (reply.statusCode !== 200) {
      throw new Error(`${url} for ${loginName} failed: ${reply.statusCode} ${reply.body}`);
    }
    return json<{ obj: Record<string, unknown> }>(reply).obj;
  };
  if (step === 'enrol') {
    const setup = await post('/api/v1/auth/twoFactor/setup', { challenge });
    memory.secret = base32Decode(String(setup.secret));
    memory.lastStep = undefined;
  }
  if (!memory.secret) {
    throw new Error(`login ${loginName}: a code is asked and the helper never enrolled it`);
  }
  // Each step's code works once: a code login within the same step as the last (the password
  // changed and the remembered device with it) takes a recovery code instead of waiting.
  const now = totpStep(Date.now());
  const recovery =
    step === 'code' && memory.lastStep !== undefined && memory.lastStep >= now + TOTP.window
      ? memory.recoveryCodes?.shift()
      : undefined;
  const totp = recovery ? undefined : await nextTotpCode(memory.secret, memory.lastStep);
  const url = step === 'enrol' ? '/api/v1/auth/twoFactor/enrol' : '/api/v1/auth/twoFactor/verify';
  const session = await post(url, {
    challenge,
    code: recovery ?? totp!.code,
    rememberDevice: true,
  });
  if (totp) memory.lastStep = totp.step;
  if (Array.isArray(session.recoveryCodes))
    memory.recoveryCodes = session.recoveryCodes as string[];
  memory.deviceToken = String(session.deviceToken);
  const { accessToken, refreshToken, profile } = session as unknown as Session;
  return { accessToken, refreshToken, profile };
}

interface LoginChallenge {
  twoFactor: { challenge: string; step: 'code' | 'enrol' };
}

export const bearer = (session: { accessToken: string }) => ({
  authorization: `Bearer ${session.accessToken}`,
});

/** The last `/{route}/{token}` link mailed to `email`. */
export function lastLinkTo(mails: string[], email: string, route: 'verify' | 'resetPassword') {
  const pattern = new RegExp(`https?://[^\\s"'<>]+/${route}/([A-Za-z0-9_-]+)`);
  const token = mails
    .filter((mail) => mail.toLowerCase().includes(`to: ${email.toLowerCase()}`))
    .map((mail) => mail.match(pattern)?.[1])
    .filter((t): t is string => Boolean(t))
    .pop();
  if (!token) throw new Error(`no ${route} mail to ${email}`);
  return token;
}

export interface SmtpPeer {
  /** `SMTP_URL` for the app under test. */
  url: string;
  /** Every mail accepted so far, decoded, with its envelope recipients. */
  received: { to: string[]; raw: string }[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port (or on `port`, to come back where a closed one was)
 * that takes `delayMs` to accept each recipient.
 */
export async function startSmtpPeer(
  options: { delayMs?: number; port?: number } = {},
): Promise<SmtpPeer> {
  const received: SmtpPeer['received'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      setTimeout(() => callback(), options.delayMs ?? 0);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
