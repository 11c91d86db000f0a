import { describe, expect, it } from 'vitest';
import {
  currencyForLanguage,
  profileCurrency,
  detectLanguage,
  isLanguage,
  languageFromAcceptLanguage,
  languageTag,
  LANGUAGES,
  resolveLanguage,
} from './locale';

describe('detectLanguage (us → en, es → es, pt → ptBR, else en)', () => {
  it.each([
    ['en-US', 'en'],
    ['en-us', 'en'],
    ['es-US', 'en'], // 'us' is checked first
    ['es', 'es'],
    ['es-ES', 'es'],
    ['es-AR', 'es'],
    ['pt-BR', 'ptBR'],
    ['pt', 'ptBR'],
    ['pt-PT', 'ptBR'],
    ['en-GB', 'en'],
    ['fr-FR', 'en'],
    ['de', 'en'],
    ['', 'en'],
    [null, 'en'],
    [undefined, 'en'],
  ] as const)('%s → %s', (browser, language) => expect(detectLanguage(browser)).toBe(language));
});

describe('languageFromAcceptLanguage uses the preferred tag', () => {
  it.each([
    ['pt-BR,pt;q=0.9,en-US;q=0.8', 'ptBR'],
    ['es-ES,es;q=0.9', 'es'],
    ['fr-FR,pt-BR;q=0.5', 'en'],
    ['en-US', 'en'],
    ['', 'en'],
    [undefined, 'en'],
  ] as const)('%s → %s', (header, language) =>
    expect(languageFromAcceptLanguage(header)).toBe(language),
  );
});

describe('resolveLanguage: the profile language overrides; unsupported falls back', () => {
  it.each([
    ['es', 'pt-BR', 'es'],
    ['ptBR', 'en-US', 'ptBR'],
    [null, 'pt-BR', 'ptBR'],
    ['fr', 'es-ES', 'es'],
    ['fr', 'fr-FR', 'en'],
    [undefined, undefined, 'en'],
  ] as const)('profile %s, browser %s → %s', (profile, browser, language) =>
    expect(resolveLanguage(profile, browser)).toBe(language),
  );
});

describe('currency by language (BRL for ptBR, USD otherwise)', () => {
  it.each([
    ['ptBR', 'BRL'],
    ['en', 'USD'],
    ['es', 'USD'],
    [null, 'USD'],
    ['fr', 'USD'],
  ] as const)('%s → %s', (language, currency) =>
    expect(currencyForLanguage(language)).toBe(currency),
  );
});

describe('languageTag', () => {
  it('round-trips through detectLanguage for every language', () => {
    for (const language of LANGUAGES) expect(detectLanguage(languageTag(language))).toBe(language);
  });
  it('guards language values', () => {
    expect(isLanguage('ptBR')).toBe(true);
    expect(isLanguage('pt')).toBe(false);
    expect(isLanguage(3)).toBe(false);
  });
});

describe('profileCurrency', () => {
  it.each([
    [{ currency: 'USD', language: 'ptBR' }, undefined, 'USD'],
    [{ currency: 'BRL', language: 'en' }, undefined, 'BRL'],
    [{ currency: 'EUR', language: 'ptBR' }, undefined, 'BRL'],
    [{ language: 'es' }, 'ptBR', 'USD'],
    [{}, 'ptBR', 'BRL'],
    [null, 'en', 'USD'],
    [undefined, undefined, 'USD'],
  ] as const)('%j (request %s) → %s', (dataInfo, fallback, expected) =>
    expect(profileCurrency(dataInfo, fallback)).toBe(expected),
  );
});
