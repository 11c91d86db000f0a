import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseLanguage,
  currentLanguage,
  i18n,
  initialLanguage,
  resetLanguage,
  applyLanguage,
} from './i18n';
import {
  getStoredLanguage,
  setRefreshToken,
  setStoredLanguage,
  setStoredUser,
} from './session-storage';
import { completeProfile } from '../test/profiles';

function browserLanguage(value: string) {
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(value);
}

describe('language detection wiring', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['pt-BR', 'ptBR'],
    ['pt-PT', 'ptBR'],
    ['es-ES', 'es'],
    ['es-US', 'en'], // 'us' is checked first
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['fr-FR', 'en'],
    ['', 'en'],
  ])('browser language %s starts the interface in %s', (browser, expected) => {
    browserLanguage(browser);
    expect(initialLanguage()).toBe(expected);
  });

  it('an explicit choice on this browser wins over detection', () => {
    browserLanguage('pt-BR');
    setStoredLanguage('es');
    expect(initialLanguage()).toBe('es');
  });

  it('the logged-in user profile language overrides both', () => {
    browserLanguage('pt-BR');
    setStoredLanguage('es');
    setRefreshToken('refresh');
    setStoredUser(completeProfile({ dataInfo: { ...completeProfile().dataInfo, language: 'en' } }));
    expect(initialLanguage()).toBe('en');
  });

  it('a stored profile without a session does not decide the language', () => {
    browserLanguage('es-ES');
    setStoredUser(
      completeProfile({ dataInfo: { ...completeProfile().dataInfo, language: 'ptBR' } }),
    );
    expect(initialLanguage()).toBe('es');
  });

  it('texts, the html lang attribute and the stored choice follow a switch; reset forgets it', async () => {
    browserLanguage('en-US');
    await chooseLanguage('ptBR');
    expect(currentLanguage()).toBe('ptBR');
    expect(getStoredLanguage()).toBe('ptBR');
    expect(i18n.t('auth.login.submit')).toBe('Entrar');
    expect(i18n.t('validation.required', { ns: 'errors' })).toBe('Este campo é obrigatório');
    expect(document.documentElement.lang).toBe('pt-BR');

    await chooseLanguage('es');
    expect(i18n.t('auth.login.submit')).toBe('Iniciar sesión');

    await resetLanguage();
    expect(getStoredLanguage()).toBeNull();
    expect(currentLanguage()).toBe('en');
    expect(i18n.t('auth.login.submit')).toBe('Log in');
  });

  it('after a lost session a pt-BR browser with a stored choice of es goes back to ptBR, not en (decision 008)', async () => {
    browserLanguage('pt-BR');
    await chooseLanguage('es');
    expect(currentLanguage()).toBe('es');

    await resetLanguage();

    expect(currentLanguage()).toBe('ptBR');
    expect(getStoredLanguage()).toBeNull();
    expect(initialLanguage()).toBe('ptBR'); // and so does the next visit
    expect(i18n.t('session.userNotLogged')).toBe('Usuário não conectado');
    expect(document.documentElement.lang).toBe('pt-BR');
  });
});
