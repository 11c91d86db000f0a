import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { TOTP, totpStep, type Language } from '@dentflow/domain';
import { E2E_DATA_DIR } from './environment';
import { webText } from './texts';

// Admins and supervisors must sign in with a second factor. The journeys sign them in as a user
// would: the first sign-in of a run enrols (the secret read from the page), later ones send the
// remembered device or a code computed here. What each account's "phone" knows is kept next to
// the server's data (both are fresh for each server start).

interface Phone {
  secret: string;
  deviceToken?: string;
  lastStep?: number;
  recoveryCodes?: string[];
}

const PHONES_FILE = path.join(E2E_DATA_DIR, 'e2e-authenticators.json');

function readPhones(): Record<string, Phone> {
  if (!existsSync(PHONES_FILE)) return {};
  return JSON.parse(readFileSync(PHONES_FILE, 'utf8')) as Record<string, Phone>;
}

export function phoneOf(login: string): Phone | undefined {
  return readPhones()[login.toLowerCase()];
}

export function savePhone(login: string, phone: Phone): void {
  mkdirSync(E2E_DATA_DIR, { recursive: true });
  writeFileSync(PHONES_FILE, JSON.stringify({ ...readPhones(), [login.toLowerCase()]: phone }));
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.toUpperCase().replace(/[\s=]/g, '')) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The RFC 6238 code of a base32 secret for a time step (SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string, step: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP.digits).padStart(
    TOTP.digits,
    '0',
  );
}

/**
 * A code for a step after the last one used (each works once): the current step or the next one
 * the server accepts; else a recovery code, else after waiting for the step to pass.
 */
export async function nextCode(phone: Phone): Promise<string> {
  for (;;) {
    const now = totpStep(Date.now());
    const step = phone.lastStep === undefined || phone.lastStep < now ? now : phone.lastStep + 1;
    if (step <= now + TOTP.window) {
      phone.lastStep = step;
      return totpCode(phone.secret, step);
    }
    const recovery = phone.recoveryCodes?.shift();
    if (recovery) return recovery;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Before the login page loads: the device this account's earlier sign-in remembered. */
export async function offerRememberedDevice(page: Page, login: string): Promise<void> {
  const token = phoneOf(login)?.deviceToken;
  if (!token) return;
  await page.addInitScript((device) => {
    window.localStorage.setItem('dentflow.trustedDevices', JSON.stringify([device]));
  }, token);
}

const rememberedDevice = (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse(window.localStorage.getItem('dentflow.trustedDevices') ?? '[]') as string[])[0],
  );

/**
 * After the password: enrols (first sign-in of an admin or supervisor) or enters the code when
 * the page asks, asking to remember the device; nothing when the page went on by itself.
 */
export async function passSecondFactor(page: Page, language: Language, login: string) {
  const t = (key: string) => webText(language, key);
  const enrolHeading = page.getByRole('heading', { name: t('auth.twoFactor.enrolTitle') });
  const codeDialog = page.getByRole('dialog', { name: t('auth.twoFactor.codeTitle') });
  await expect
    .poll(
      async () =>
        !new URL(page.url()).pathname.startsWith('/login') ||
        (await enrolHeading.isVisible()) ||
        (await codeDialog.isVisible()),
      { timeout: 20_000 },
    )
    .toBe(true);
  const codeField = page.getByRole('textbox', { name: new RegExp(`^${t('auth.twoFactor.code')}`) });
  const remember = page.getByLabel(t('auth.twoFactor.rememberDevice'));
  if (await enrolHeading.isVisible()) {
    const secret = (await page.getByTestId('authenticator-secret').innerText()).replace(/\s/g, '');
    const phone: Phone = { secret };
    await codeField.fill(await nextCode(phone));
    await remember.check();
    await page.getByRole('button', { name: t('auth.twoFactor.confirm') }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect(codes).toHaveCount(10);
    phone.recoveryCodes = (await codes.allInnerTexts()).map((code) => code.trim());
    await page.getByRole('button', { name: t('auth.twoFactor.continue') }).click();
    await expect(page).not.toHaveURL(/\/login/);
    phone.deviceToken = await rememberedDevice(page);
    savePhone(login, phone);
  } else if (await codeDialog.isVisible()) {
    const phone = phoneOf(login);
    if (!phone) throw new Error(`${login}: a code is asked and no enrolment of this run knows it`);
    await codeField.fill(await nextCode(phone));
    await remember.check();
    await codeDialog.getByRole('button', { name: t('auth.twoFactor.verify') }).click();
    await expect(page).not.toHaveURL(/\/login/);
    phone.deviceToken = await rememberedDevice(page);
    savePhone(login, phone);
  }
}

/**
 * An access token of a demo user through the API, second factor included (enrolling through the
 * API when this run has not yet), like `passSecondFactor` on the page.
 */
export async function apiAccessToken(api: APIRequestContext, login: string, password: string) {
  const phone = phoneOf(login);
  const response = await api.post('/api/v1/auth/login', {
    data: { login, password, ...(phone?.deviceToken ? { devices: [phone.deviceToken] } : {}) },
  });
  expect(response.status(), await response.text()).toBe(200);
  const answer = ((await response.json()) as { obj: Record<string, unknown> }).obj;
  const challenge = answer.twoFactor as { challenge: string; step: 'code' | 'enrol' } | undefined;
  if (!challenge) return String(answer.accessToken);
  const post = async (url: string, data: object) => {
    const reply = await api.post(url, { data });
    expect(reply.status(), await reply.text()).toBe(200);
    return ((await reply.json()) as { obj: Record<string, unknown> }).obj;
  };
  let known = phone;
  if (challenge.step === 'enrol') {
    const setup = await post('/api/v1/auth/twoFactor/setup', { challenge: challenge.challenge });
    known = { secret: String(setup.secret) };
  }
  if (!known) throw new Error(`${login}: a code is asked and no enrolment of this run knows it`);
  const url = `/api/v1/auth/twoFactor/${challenge.step === 'enrol' ? 'enrol' : 'verify'}`;
  const session = await post(url, {
    challenge: challenge.challenge,
    code: await nextCode(known),
    rememberDevice: true,
  });
  if (Array.isArray(session.recoveryCodes)) known.recoveryCodes = session.recoveryCodes as string[];
  known.deviceToken = String(session.deviceToken);
  savePhone(login, known);
  return String(session.accessToken);
}
