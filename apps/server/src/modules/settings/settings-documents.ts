import {
  DEFAULT_EMAILS_SETTINGS,
  emailsSettingsSchema,
  type EmailsSettings,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { findSetting } from '../shop/shop.repository';

/**
 * Readers of the settings documents other modules use. Each reads the stored document on every
 * call (a save takes effect at once) and falls back to the defaults when none is stored or it
 * cannot be read. The `shipping` and `payments` readers live with their users
 * (`shop/cart-pricing.ts`, `payments/payment-settings.ts`).
 */

/** The `emails` document: the sender name and the types mailed to users who never chose. */
export async function loadEmailsSettings(db: DbOrTx): Promise<EmailsSettings> {
  const parsed = emailsSettingsSchema.safeParse(await findSetting(db, 'emails'));
  return parsed.success ? parsed.data : DEFAULT_EMAILS_SETTINGS;
}

/**
 * `MAIL_FROM` with its display name replaced by the settings' sender name:
 * ('Dentflow <no-reply@x.y>', 'Clínica') → '"Clínica" <no-reply@x.y>'. For the mail sender,
 * which reads `MAIL_FROM` once at start today.
 */
export function mailFromWithSenderName(mailFrom: string, senderName: string): string {
  const address = /<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const name = senderName.replace(/["\\<>\p{Cc}]/gu, '').trim();
  return name ? `"${name}" <${address}>` : mailFrom;
}
