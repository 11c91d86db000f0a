import {
  DEFAULT_EMAILS_SETTINGS,
  allTreatmentPurposeTexts,
  emailsSettingsSchema,
  shippingSettingsSchema,
  treatmentPurposesSettingsSchema,
  type EmailsSettings,
  type ShippingSettings,
  type TreatmentPurposesSettings,
} from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { findSetting, storedSettingSql } from './settings.repository';

/**
 * Readers of the settings documents other modules use. Each reads the stored document on every
 * call (a save takes effect at once) and falls back to the defaults when none is stored or it
 * cannot be read. The `payments` document's readers are in `payment-settings.ts`.
 */

/** The `emails` document: the sender name and the types mailed to users who never chose. */
export async function loadEmailsSettings(db: DbOrTx): Promise<EmailsSettings> {
  return emailsSettingsOf(await findSetting(db, 'emails'));
}

/**
 * The stored `emails` document as a column of another module's statement, for `emailsSettingsOf`:
 * a hot path (a notification, a mail's delivery) saves a round trip.
 */
export const emailsSettingsColumn = () => storedSettingSql('emails');

/** The `emails` document from its stored value (`emailsSettingsColumn`). */
export function emailsSettingsOf(stored: unknown): EmailsSettings {
  const parsed = emailsSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_EMAILS_SETTINGS;
}

/** The `treatmentPurposes` document: all seven purposes, with empty texts when none is stored. */
export async function loadTreatmentPurposesSettings(
  db: DbOrTx,
): Promise<TreatmentPurposesSettings> {
  const parsed = treatmentPurposesSettingsSchema.safeParse(
    await findSetting(db, 'treatmentPurposes'),
  );
  return parsed.success ? parsed.data : { treatmentPurposes: allTreatmentPurposeTexts([]) };
}

/** The shipping table from settings; a missing or broken one offers nothing. */
export async function loadShippingSettings(db: DbOrTx): Promise<ShippingSettings> {
  const parsed = shippingSettingsSchema.safeParse(await findSetting(db, 'shipping'));
  return parsed.success ? parsed.data : { options: [], motoboyZipRanges: [] };
}
