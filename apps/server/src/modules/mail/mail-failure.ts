import { redactMailText, type MailMessage } from '../../adapters/mail/mail-sender';

/** The longest error text kept on an outbox row. */
const MAX_ERROR_LENGTH = 1000;

/** The error text stored on the outbox row (redacted like the sender's log, and bounded). */
export function storedMailError(error: unknown, message?: MailMessage): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return (message ? redactMailText(text, message) : text).slice(0, MAX_ERROR_LENGTH);
}
