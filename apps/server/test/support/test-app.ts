import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { buildApp, type BuildOptions } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';

export const ADMIN_PG_URL =
  process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh PostgreSQL database for one test file; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `dentflow_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_PG_URL });
  await admin.connect();
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
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /**
   * Every `.eml` in the outbox, oldest first, as text — once the mails handed off in the
   * background (`app.mail.dispatch`) are written.
   */
  outbox(): Promise<string[]>;
  close(): Promise<void>;
}

const GENEROUS_LIMITS = {
  RATE_LIMIT_LOGIN_MAX: '10000',
  RATE_LIMIT_REGISTER_MAX: '10000',
  RATE_LIMIT_FORGOT_PASSWORD_MAX: '10000',
  RATE_LIMIT_NICKNAME_MAX: '10000',
};

/** Boots buildApp() on a fresh PostgreSQL database (or PGlite when `pglite` is set). */
export async function startTestApp(
  env: Record<string, string> = {},
  options: BuildOptions & { pglite?: boolean; dataDir?: string } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dentflow-test-'));
  const database = options.pglite ? undefined : await createTestDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://dentflow.test',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...GENEROUS_LIMITS,
    ...(database ? { DATABASE_URL: database.url } : {}),
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

export async function login(
  app: FastifyInstance,
  loginName: string,
  password = 'Dentflow123',
  remember = false,
): Promise<Session> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { login: loginName, password, remember },
  });
  if (response.statusCode !== 200) {
    throw new Error(`login ${loginName} failed: ${response.statusCode} ${response.body}`);
  }
  return json<{ obj: Session }>(response).obj;
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

/** A real SMTP server on a free local port that takes `delayMs` to accept each recipient. */
export async function startSmtpPeer(options: { delayMs?: number } = {}): Promise<SmtpPeer> {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
