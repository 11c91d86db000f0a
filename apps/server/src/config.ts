import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_UPLOAD_PART_BYTES, S3_MIN_PART_BYTES, SEARCH_TOTAL_CAP } from '@dentflow/domain';
import { findRepoRoot, resolveUserPath } from './paths';

/** A yes/no variable; unset gives `fallback` (undefined: decided later from other settings). */
const booleanFromEnv = <Fallback extends boolean | undefined>(fallback: Fallback) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      error: 'must be one of true, false, 1, 0, yes, no',
    })
    .optional()
    .transform((value): boolean | Fallback =>
      value === undefined ? fallback : ['true', '1', 'yes'].includes(value),
    );

/**
 * Trusts the last `hops` hops — the socket peer, then X-Forwarded-For from the right — so the client
 * address is the entry the outermost proxy appended, whatever the client wrote to the left of it.
 */
export type TrustProxyHops = (address: string, hop: number) => boolean;

function trustLastHops(hops: number): TrustProxyHops {
  return (_address, hop) => hop < hops;
}

/** Fastify's (and proxy-addr's) names for address ranges. */
const PROXY_RANGE_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR (`10.0.0.0/8`), an IPv4 with netmask, or a keyword — as proxy-addr compiles. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_KEYWORDS.includes(entry)) return true;
  const slash = entry.lastIndexOf('/');
  if (slash === -1) return isIP(entry) !== 0;
  const version = isIP(entry.slice(0, slash));
  const range = entry.slice(slash + 1);
  if (version === 0) return false;
  if (/^\d+$/.test(range)) return Number(range) >= 1 && Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(range) === 4;
}

const TRUST_PROXY_FORMS =
  'false, the number of proxies in front of the server (e.g. 1), or their addresses ' +
  `(e.g. loopback or 10.0.0.0/8,127.0.0.1; keywords: ${PROXY_RANGE_KEYWORDS.join(', ')})`;

/**
 * `true` is refused: trusting every hop makes the leftmost X-Forwarded-For entry, which the client
 * writes, the client address — so anyone escapes the rate limits with a made-up header.
 */
const trustProxyFromEnv = z
  .string()
  .trim()
  .optional()
  .transform((value, context): false | string[] | TrustProxyHops => {
    if (!value) return false;
    const lowerCase = value.toLowerCase();
    if (lowerCase === 'false' || lowerCase === '0') return false;
    if (lowerCase === 'true' || lowerCase === 'yes') {
      context.addIssue({
        code: 'custom',
        message:
          'true is unsafe: it trusts every X-Forwarded-For entry, so any client can pick its own ' +
          'address and escape the rate limits. Give the number of proxies in front of the server ' +
          '(e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=loopback or 10.0.0.0/8,127.0.0.1)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 20) return trustLastHops(hops);
      context.addIssue({
        code: 'custom',
        message: `at most 20 proxies; must be ${TRUST_PROXY_FORMS}`,
      });
      return z.NEVER;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length === 0) return entries;
    context.addIssue({
      code: 'custom',
      message: `not a proxy address: ${bad.map((entry) => `"${entry}"`).join(', ')}; must be ${TRUST_PROXY_FORMS}`,
    });
    return z.NEVER;
  });

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const optionalUrl = (protocols: RegExp, hint: string) =>
  optionalText.pipe(
    z
      .string()
      .url({ error: `must be a URL (${hint})` })
      .refine((value) => protocols.test(value), `must be a URL (${hint})`)
      .optional(),
  );

/** Every setting of the server, read from the environment (`.env.example`). */
const envSchema = z.object({
  NODE_ENV: optionalText,
  DATA_DIR: optionalText,
  DATABASE_URL: optionalUrl(/^postgres(ql)?:\/\//, 'postgres://user:pass@host:5432/db'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  TRUST_PROXY: trustProxyFromEnv,
  PUBLIC_URL: z
    .string()
    .trim()
    .url({ error: 'must be a URL such as http://localhost:3000' })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  JWT_SECRET: optionalText.pipe(
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  SMTP_URL: optionalUrl(/^smtps?:\/\//, 'smtp://user:pass@host:587'),
  MAIL_FROM: z.string().trim().min(3).default('Dentflow <no-reply@dentflow.local>'),
  REDIS_URL: optionalUrl(/^rediss?:\/\//, 'redis://host:6379'),
  // Unset: true, except with NODE_ENV=production (see `seedDemo`).
  SEED_DEMO: booleanFromEnv(undefined),
  WEB_DIST_DIR: optionalText,
  ZIP_LOOKUP_URL: optionalUrl(/^https?:\/\//, 'https://viacep.com.br/ws'),
  ZIP_LOOKUP_TIMEOUT_MS: positiveInt(5000),
  CASE_SEARCH_TOTAL_CAP: positiveInt(SEARCH_TOTAL_CAP),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_WINDOW_MS: positiveInt(60_000),
  RATE_LIMIT_LOGIN_MAX: positiveInt(20),
  RATE_LIMIT_REGISTER_MAX: positiveInt(10),
  RATE_LIMIT_FORGOT_PASSWORD_MAX: positiveInt(5),
  RATE_LIMIT_NICKNAME_MAX: positiveInt(60),
  RATE_LIMIT_UPLOAD_MAX: positiveInt(120),
  RATE_LIMIT_CASE_MOVE_MAX: positiveInt(300),
  RATE_LIMIT_PASSWORD_ACCOUNT_MAX: positiveInt(10),
  RATE_LIMIT_PASSWORD_ADDRESS_MAX: positiveInt(20),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalUrl(/^https?:\/\//, 'https://s3.example.com'),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFromEnv(false),
  UPLOAD_PART_BYTES: positiveInt(DEFAULT_UPLOAD_PART_BYTES),
  PIX_KEY: optionalText,
  PIX_MERCHANT_NAME: optionalText,
  PIX_MERCHANT_CITY: optionalText,
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_CLIENT_SECRET: optionalText,
  PAYPAL_API_URL: optionalUrl(/^https?:\/\//, 'https://api-m.sandbox.paypal.com'),
  PAYPAL_WEBHOOK_ID: optionalText,
  PAGBANK_TOKEN: optionalText,
  PAGBANK_API_URL: optionalUrl(/^https?:\/\//, 'https://sandbox.api.pagseguro.com'),
  PAYMENT_PROVIDER_TIMEOUT_MS: positiveInt(10_000),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(5000),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  METRICS_TOKEN: optionalText.pipe(
    z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  ),
});

/** PayPal's and PagBank's sandboxes: used when only the credentials are given. */
export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com';
export const PAGBANK_SANDBOX_URL = 'https://sandbox.api.pagseguro.com';

export interface Config {
  /** NODE_ENV=production: no demo data unless asked, no mail links in the log. */
  production: boolean;
  dataDir: string;
  /** PostgreSQL when set, else PGlite in `${dataDir}/db`. */
  databaseUrl: string | undefined;
  port: number;
  host: string;
  /**
   * Fastify's `trustProxy`: which peers may tell the client address through X-Forwarded-For
   * (rate limits, audit). `false` (the socket address), the last N hops, or proxy addresses.
   */
  trustProxy: false | string[] | TrustProxyHops;
  publicUrl: string;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  /**
   * Seed the demo accounts (public password) on an empty database. `SEED_DEMO`; unset: true for
   * a local run (`npm start` sets no NODE_ENV), false with NODE_ENV=production.
   */
  seedDemo: boolean;
  webDistDir: string;
  zipLookupUrl: string | undefined;
  zipLookupTimeoutMs: number;
  /** A searched case list counts its matches up to this many, then answers "cap+". */
  caseSearchTotalCap: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  rateLimit: {
    windowMs: number;
    login: number;
    register: number;
    forgotPassword: number;
    nickname: number;
    /** Upload URL creation (createPostUrl, create/temp, avatar) per client per window. */
    upload: number;
    /** Case moves per signed-in user per window (a lab validates batches from one address). */
    caseMove: number;
    /** Wrong passwords (login, approve, password change, account deletion) per account. */
    passwordPerAccount: number;
    /** Wrong passwords per client address, across accounts. */
    passwordPerAddress: number;
  };
  /** The part size of resumable uploads (exams, planning files). */
  uploadPartBytes: number;
  /** S3-compatible file store; undefined: local files in `${dataDir}/files`. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  payments: {
    /** Pix receiver defaults; the payments settings (admin) override them. */
    pix: { key: string | undefined; merchantName: string; merchantCity: string };
    /** PayPal Orders v2; undefined: PayPal is not offered. */
    paypal:
      | { clientId: string; clientSecret: string; apiUrl: string; webhookId: string | undefined }
      | undefined;
    /** PagBank checkout; undefined: PagBank is not offered. */
    pagbank: { token: string; apiUrl: string } | undefined;
    providerTimeoutMs: number;
  };
  /** How long a request waits for a database connection before it answers 503. */
  databaseConnectTimeoutMs: number;
  shutdown: {
    /**
     * After SIGTERM, how long the instance keeps serving while `/api/ready` answers 503, so the
     * load balancer's health checks take it out of rotation before it stops accepting.
     */
    drainMs: number;
    /** Then the longest wait for requests in flight (and jobs, the mail worker) to finish. */
    timeoutMs: number;
  };
  /** Bearer token of `GET /metrics`; undefined: the endpoint does not exist (404). */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Without JWT_SECRET the secret is generated once and kept in DATA_DIR, so sessions survive restarts. */
function loadOrCreateJwtSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** Validates the environment; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
  // A secret generated into DATA_DIR differs per instance and dies with the volume: in production
  // it must be given, or sessions break across instances and restarts.
  const production = env.NODE_ENV?.trim() === 'production';
  if (production && !env.JWT_SECRET?.trim()) {
    problems.push(
      'JWT_SECRET: required when NODE_ENV=production (a random string of at least 32 characters)',
    );
  }
  if (
    env.S3_BUCKET?.trim() &&
    !env.S3_ACCESS_KEY_ID?.trim() !== !env.S3_SECRET_ACCESS_KEY?.trim()
  ) {
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: give both or neither');
  }
  const partBytes = Number(env.UPLOAD_PART_BYTES ?? DEFAULT_UPLOAD_PART_BYTES);
  if (partBytes < 64 * 1024 || (env.S3_BUCKET?.trim() && partBytes < S3_MIN_PART_BYTES)) {
    problems.push(
      `UPLOAD_PART_BYTES: at least 65536, and ${S3_MIN_PART_BYTES} (5 MiB) with S3_BUCKET`,
    );
  }
  if (!env.PAYPAL_CLIENT_ID?.trim() !== !env.PAYPAL_CLIENT_SECRET?.trim()) {
    problems.push('PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: give both or neither');
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const repoRoot = findRepoRoot();
  const dataDir = e.DATA_DIR ? resolveUserPath(e.DATA_DIR) : join(repoRoot, 'data');
  return {
    production,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    // Unset: where this process listens, so mailed links work on a local run on any port.
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateJwtSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    seedDemo: e.SEED_DEMO ?? !production,
    webDistDir: e.WEB_DIST_DIR
      ? resolveUserPath(e.WEB_DIST_DIR)
      : join(repoRoot, 'apps', 'web', 'dist'),
    zipLookupUrl: e.ZIP_LOOKUP_URL?.replace(/\/+$/, ''),
    zipLookupTimeoutMs: e.ZIP_LOOKUP_TIMEOUT_MS,
    caseSearchTotalCap: e.CASE_SEARCH_TOTAL_CAP,
    logLevel: e.LOG_LEVEL,
    rateLimit: {
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      login: e.RATE_LIMIT_LOGIN_MAX,
      register: e.RATE_LIMIT_REGISTER_MAX,
      forgotPassword: e.RATE_LIMIT_FORGOT_PASSWORD_MAX,
      nickname: e.RATE_LIMIT_NICKNAME_MAX,
      upload: e.RATE_LIMIT_UPLOAD_MAX,
      caseMove: e.RATE_LIMIT_CASE_MOVE_MAX,
      passwordPerAccount: e.RATE_LIMIT_PASSWORD_ACCOUNT_MAX,
      passwordPerAddress: e.RATE_LIMIT_PASSWORD_ADDRESS_MAX,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    uploadPartBytes: e.UPLOAD_PART_BYTES,
    payments: {
      pix: {
        key: e.PIX_KEY,
        merchantName: e.PIX_MERCHANT_NAME ?? 'Dentflow',
        merchantCity: e.PIX_MERCHANT_CITY ?? 'Sao Paulo',
      },
      paypal:
        e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
          ? {
              clientId: e.PAYPAL_CLIENT_ID,
              clientSecret: e.PAYPAL_CLIENT_SECRET,
              apiUrl: (e.PAYPAL_API_URL ?? PAYPAL_SANDBOX_URL).replace(/\/+$/, ''),
              webhookId: e.PAYPAL_WEBHOOK_ID,
            }
          : undefined,
      pagbank: e.PAGBANK_TOKEN
        ? {
            token: e.PAGBANK_TOKEN,
            apiUrl: (e.PAGBANK_API_URL ?? PAGBANK_SANDBOX_URL).replace(/\/+$/, ''),
          }
        : undefined,
      providerTimeoutMs: e.PAYMENT_PROVIDER_TIMEOUT_MS,
    },
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, timeoutMs: e.SHUTDOWN_TIMEOUT_MS },
    metricsToken: e.METRICS_TOKEN,
  };
}
