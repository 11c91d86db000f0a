import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'dentflow-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('has working defaults and generates the JWT secret once into DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      dataDir: dir,
      databaseUrl: undefined,
      port: 3000,
      publicUrl: 'http://localhost:3000',
      seedDemo: true,
      smtpUrl: undefined,
      redisUrl: undefined,
      zipLookupUrl: undefined,
    });
    expect(config.webDistDir).toMatch(/apps\/web\/dist$/);
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(true);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('points mailed links at the port it listens on when PUBLIC_URL is unset', () => {
    expect(loadConfig({ DATA_DIR: dir, PORT: '3200' }).publicUrl).toBe('http://localhost:3200');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: 'postgres://u:p@db:5432/dentflow',
      PORT: '8080',
      PUBLIC_URL: 'https://app.example.com/',
      JWT_SECRET: 's'.repeat(40),
      SMTP_URL: 'smtp://u:p@mail:587',
      MAIL_FROM: 'App <app@example.com>',
      REDIS_URL: 'redis://cache:6379',
      SEED_DEMO: 'false',
      ZIP_LOOKUP_URL: 'https://viacep.com.br/ws/',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_LOGIN_MAX: '7',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/dentflow',
      port: 8080,
      publicUrl: 'https://app.example.com',
      jwtSecret: 's'.repeat(40),
      seedDemo: false,
      zipLookupUrl: 'https://viacep.com.br/ws',
      logLevel: 'warn',
    });
    expect(config.rateLimit.login).toBe(7);
  });

  it('stops with the list of every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: dir,
        DATABASE_URL: 'mysql://nope',
        PORT: 'eighty',
        JWT_SECRET: 'short',
        SEED_DEMO: 'maybe',
        LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['DATABASE_URL', 'PORT', 'JWT_SECRET', 'SEED_DEMO', 'LOG_LEVEL']) {
      expect(problems).toContain(name);
    }
  });
});
