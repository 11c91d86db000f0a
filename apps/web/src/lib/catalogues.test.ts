import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { catalogue as en } from './catalogues/en';
import { catalogue as ptBR } from './catalogues/ptBR';
import { catalogue as es } from './catalogues/es';

type Tree = Record<string, unknown>;

function leafKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? leafKeys(value as Tree, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('interface catalogues', () => {
  it.each([
    'web',
    'errors',
    'domain',
    'cases',
    'files',
    'shop',
    'admin',
    'payments',
    'chat',
    'notifications',
  ] as const)(
    'ptBR and es have exactly the keys of en in %s (each loads alone, without a fallback)',
    (namespace) => {
      const expected = leafKeys(en[namespace]).sort();
      expect(leafKeys(ptBR[namespace]).sort()).toEqual(expected);
      expect(leafKeys(es[namespace]).sort()).toEqual(expected);
    },
  );

  it('every literal key the interface translates exists (no raw key on screen)', () => {
    // Feature namespaces are written with their prefix: t('cases:list.title').
    const known = new Set([
      ...leafKeys(en.web),
      ...leafKeys(en.errors),
      ...leafKeys(en.domain),
      ...leafKeys(en.errors).map((key) => `errors:${key}`),
      ...leafKeys(en.domain).map((key) => `domain:${key}`),
      ...leafKeys(en.cases).map((key) => `cases:${key}`),
      ...leafKeys(en.files).map((key) => `files:${key}`),
      ...leafKeys(en.shop).map((key) => `shop:${key}`),
      ...leafKeys(en.admin).map((key) => `admin:${key}`),
      ...leafKeys(en.payments).map((key) => `payments:${key}`),
      ...leafKeys(en.chat).map((key) => `chat:${key}`),
      ...leafKeys(en.notifications).map((key) => `notifications:${key}`),
    ]);
    // A key with plural forms (`days_one`, `days_other`) is used by its base name with a count.
    for (const key of [...known]) known.add(key.replace(/_(one|other)$/, ''));
    const root = join(import.meta.dirname, '..');
    const used = sourceFiles(root).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([\w.:]+)'/g)].map(
        (match) => `${file.slice(root.length + 1)}: ${match[1]!}`,
      ),
    );
    expect(used.length).toBeGreaterThan(100);
    expect(used.filter((entry) => !known.has(entry.split(': ')[1]!))).toEqual([]);
  });

  it('starts with only the language in use loaded', async () => {
    vi.resetModules();
    vi.spyOn(window.navigator, 'language', 'get').mockReturnValue('es-ES');
    const fresh = await import('./i18n');
    await fresh.i18nReady;
    expect(fresh.i18n.hasResourceBundle('es', 'web')).toBe(true);
    expect(fresh.i18n.hasResourceBundle('en', 'web')).toBe(false);
    expect(fresh.i18n.hasResourceBundle('ptBR', 'web')).toBe(false);
    expect(fresh.i18n.t('auth.login.submit')).toBe(es.web.auth.login.submit);

    await fresh.applyLanguage('ptBR');
    expect(fresh.i18n.t('auth.login.submit')).toBe(ptBR.web.auth.login.submit);
    vi.restoreAllMocks();
  });
});
