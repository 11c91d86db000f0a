import type { MailMessage } from '../../adapters/mail/mail-sender';

/** The longest error text kept on an outbox row. */
const MAX_ERROR_LENGTH = 1000;

/**
 * What of a failed delivery may be logged, in both modes: the subject, the recipient's domain and
 * the error with the message's links (live account tokens) and any mail address removed — the
 * same rules as the SMTP sender's own log (decision 009).
 */
export function describeMailFailure(error: unknown, message: MailMessage): Record<string, unknown> {
  const failure = error instanceof Error ? error : new Error(String(error));
  const { code, command, responseCode } = failure as Error & Record<string, unknown>;
  return {
    err: {
      type: failure.name,
      message: redact(failure.message, message),
      code,
      command,
      responseCode,
    },
    subject: message.subject,
    recipientDomain: recipientDomain(message.to),
  };
}

/** The error text stored on the outbox row (redacted like the log, and bounded). */
export function storedMailError(error: unknown, message?: MailMessage): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return (message ? redact(text, message) : text).slice(0, MAX_ERROR_LENGTH);
}

export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at === -1 ? '' : address.slice(at + 1).replace(/>$/, '');
}

function redact(text: string, message: MailMessage): string {
  const withoutLinks = message.links.reduce((out, link) => out.split(link).join('[link]'), text);
  return withoutLinks.replace(/[^\s<>"'@:;,()[\]]+@([A-Za-z0-9.-]+)/g, '[address]@$1');
}
