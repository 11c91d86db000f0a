import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { E2E_DATA_DIR } from './environment';

const outboxDir = path.join(E2E_DATA_DIR, 'outbox');

/**
 * Undoes quoted-printable soft line breaks and escapes so links and texts can be read from the raw
 * mail; a run of escapes is decoded as UTF-8 bytes, so accented words read as the catalogue has them.
 */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) =>
      Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'),
    );
}

function mailsTo(email: string): string[] {
  let files: string[] = [];
  try {
    files = readdirSync(outboxDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((name) => path.join(outboxDir, name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    .map((file) => decodeQuotedPrintable(readFileSync(file, 'utf8')))
    .filter((mail) => mail.toLowerCase().includes(email.toLowerCase()));
}

/** Waits for the newest mail to `email` that links to `/{route}/{token}` and returns that path. */
export async function linkFromOutbox(
  email: string,
  route: 'verify' | 'resetPassword',
): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const pattern = new RegExp(`https?://[^\\s"'<>]+(/${route}/[A-Za-z0-9_-]+)`);
        found = mailsTo(email)
          .map((mail) => mail.match(pattern)?.[1])
          .filter(Boolean)
          .pop();
        return found;
      },
      { message: `a ${route} mail to ${email} in ${outboxDir}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return found!;
}

/** Waits for the newest mail to `email` whose decoded text matches `pattern` and returns that text. */
export async function mailFromOutbox(email: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(email)
          .filter((mail) => pattern.test(mail))
          .pop();
        return found;
      },
      { message: `a mail to ${email} matching ${pattern} in ${outboxDir}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return found!;
}
