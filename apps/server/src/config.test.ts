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

  describe('TRUST_PROXY', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: dir, ...env });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };

    it('trusts no proxy by default or with false / 0', () => {
      expect(loadConfig({ DATA_DIR: dir }).trustProxy).toBe(false);
      for (const value of ['false', 'FALSE', '0', '']) {
        expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: value }).trustProxy, value).toBe(false);
      }
    });

    it('takes a hop count: the socket peer and that many proxies, no further', () => {
      const one = loadConfig({ DATA_DIR: dir, TRUST_PROXY: '1' }).trustProxy;
      if (typeof one !== 'function')
        throw new Error(`expected a trust function, got ${String(one)}`);
      expect(one('127.0.0.1', 0)).toBe(true);
      expect(one('203.0.113.9', 1)).toBe(false);
      const two = loadConfig({ DATA_DIR: dir, TRUST_PROXY: ' 2 ' }).trustProxy;
      if (typeof two !== 'function')
        throw new Error(`expected a trust function, got ${String(two)}`);
      expect([0, 1, 2].map((hop) => two('10.0.0.1', hop))).toEqual([true, true, false]);
    });

    it('takes a list of proxy addresses, CIDRs and keywords as Fastify does', () => {
      expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'loopback' }).trustProxy).toEqual([
        'loopback',
      ]);
      expect(
        loadConfig({
          DATA_DIR: dir,
          TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,uniquelocal,::1,fd00::/8,192.168.1.0/255.255.255.0',
        }).trustProxy,
      ).toEqual([
        '10.0.0.0/8',
        '127.0.0.1',
        'uniquelocal',
        '::1',
        'fd00::/8',
        '192.168.1.0/255.255.255.0',
      ]);
    });

    it('refuses true (every hop trusted) with a message that says what to give instead', () => {
      for (const value of ['true', 'TRUE', 'yes']) {
        const problems = problemsOf({ TRUST_PROXY: value });
        expect(problems, value).toHaveLength(1);
        expect(problems[0]).toMatch(/^TRUST_PROXY: true is unsafe/);
        expect(problems[0]).toContain('number of proxies');
        expect(problems[0]).toContain('addresses');
      }
    });

    it('refuses what is neither a count nor an address, naming the bad entries', () => {
      const problems = problemsOf({ TRUST_PROXY: '127.0.0.1,proxy.internal,10.0.0.0/33' });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('TRUST_PROXY');
      expect(problems[0]).toContain('"proxy.internal", "10.0.0.0/33"');
      expect(problemsOf({ TRUST_PROXY: '1,,2' })[0]).toContain('TRUST_PROXY');
      expect(problemsOf({ TRUST_PROXY: '500' })[0]).toContain('TRUST_PROXY');
    });
  });

  describe('SEED_DEMO and NODE_ENV', () => {
    const secret = { JWT_SECRET: 'p'.repeat(40) };
    it.each([
      // [NODE_ENV, SEED_DEMO, seeds the demo accounts]
      [undefined, undefined, true], // `npm start`: no NODE_ENV
      ['development', undefined, true],
      ['test', undefined, true],
      ['production', undefined, false],
      [' production ', undefined, false],
      ['production', 'true', true],
      ['production', '1', true],
      ['production', 'false', false],
      [undefined, 'false', false],
      ['development', 'no', false],
    ])('NODE_ENV=%s SEED_DEMO=%s → seedDemo %s', (nodeEnv, seedDemo, expected) => {
      const env: Record<string, string> = { DATA_DIR: dir, ...secret };
      if (nodeEnv !== undefined) env.NODE_ENV = nodeEnv;
      if (seedDemo !== undefined) env.SEED_DEMO = seedDemo;
      const config = loadConfig(env);
      expect(config.seedDemo).toBe(expected);
      expect(config.production).toBe(nodeEnv?.trim() === 'production');
    });
  });

  describe('JWT_SECRET in production', () => {
    it('is required: the boot stops with JWT_SECRET in the list of what is wrong', () => {
      const productionDir = join(dir, 'production');
      let error: unknown;
      try {
        loadConfig({ DATA_DIR: productionDir, NODE_ENV: 'production', PORT: 'eighty' });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toContainEqual(expect.stringMatching(/^JWT_SECRET: required/));
      expect(problems).toContainEqual(expect.stringMatching(/^PORT/));
      // Nothing was generated in its place.
      expect(existsSync(join(productionDir, 'jwt-secret'))).toBe(false);
      expect(() =>
        loadConfig({ DATA_DIR: productionDir, NODE_ENV: 'production', JWT_SECRET: '  ' }),
      ).toThrow(/JWT_SECRET: required/);
    });

    it('is taken as given in production, and generated everywhere else', () => {
      const secret = 'p'.repeat(40);
      expect(
        loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', JWT_SECRET: secret }).jwtSecret,
      ).toBe(secret);
      for (const nodeEnv of ['development', 'test', '']) {
        const generatedDir = join(dir, `generated-${nodeEnv || 'unset'}`);
        const config = loadConfig({ DATA_DIR: generatedDir, NODE_ENV: nodeEnv });
        expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
        expect(readFileSync(join(generatedDir, 'jwt-secret'), 'utf8').trim()).toBe(
          config.jwtSecret,
        );
      }
    });
  });
});
