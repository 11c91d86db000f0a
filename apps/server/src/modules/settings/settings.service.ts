import {
  DEFAULT_EMAILS_SETTINGS,
  buildPixBrCode,
  currenciesWithoutOnlineMethod,
  emailsSettingsSchema,
  shippingSettingsSchema,
  type EmailsSettings,
  type PaymentsSettings,
  type PaymentsSettingsView,
  type ServiceMetadataSettings,
  type ServiceMetadataSettingsView,
  type ShippingSettings,
  type SleevesSettings,
  type SleevesSettingsView,
  type TreatmentPurposesSettings,
} from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import type { DbOrTx } from '../../db/client';
import { validationError } from '../../http/app-error';
import { writeAudit } from '../audit';
import {
  configuredPaymentMethodsOf,
  loadPaymentSettings,
  paymentSettingsSchema,
  paymentSwitchesOf,
  pixReceiverOf,
  type StoredPaymentSettings,
} from './payment-settings';
import {
  loadEmailsSettings,
  loadShippingSettings,
  loadTreatmentPurposesSettings,
} from './settings-documents';
import {
  deleteKitManufacturers,
  insertKitManufacturer,
  insertSleeve,
  isKitNameViolation,
  listKitManufacturers,
  listLiveSleeves,
  lockSetting,
  saveSetting,
  updateKitManufacturer,
  updateSleeve,
  type KitManufacturerRow,
  type SleeveRow,
} from './settings.repository';

/** The fields of `after` whose value differs from `before`'s, with both sides (audit details). */
export function changesOf<T extends object>(before: T, after: T) {
  const changed = (Object.keys(after) as (keyof T & string)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  const pick = (from: T) => Object.fromEntries(changed.map((key) => [key, from[key]]));
  return { changed, before: pick(before), after: pick(after) };
}

/** The stored payments document with every field present (the form's shape). */
const paymentsDocumentOf = (stored: StoredPaymentSettings): PaymentsSettings => ({
  pixKey: stored.pixKey ?? '',
  pixMerchantName: stored.pixMerchantName ?? '',
  pixMerchantCity: stored.pixMerchantCity ?? '',
  enabled: paymentSwitchesOf(stored),
});

const kitOf = (row: KitManufacturerRow) => ({
  id: row.id,
  manufactureName: row.manufactureName,
  systems: row.systems,
  active: row.active,
});

const sleeveOf = (row: SleeveRow) => ({
  id: row.id,
  sleeveManufacture: row.sleeveManufacture,
  prices: { BRL: row.prices.BRL, USD: row.prices.USD },
});

/**
 * The settings sections of the administration. Each save runs in one
 * transaction with the stored document or rows locked, writes an audit row per changed document
 * or row (before and after of the changed fields), and takes effect at once: every reader loads
 * the stored settings on each use.
 */
export function createSettingsService(ctx: AppContext) {
  const { db, config } = ctx;

  /** Saves a settings document and audits what changed; nothing changed → no row. */
  async function saveDocument<T extends object>(
    tx: DbOrTx,
    key: string,
    before: T,
    after: T,
    actorUserId: number,
    meta: RequestMeta,
  ): Promise<void> {
    await saveSetting(tx, key, after);
    const changes = changesOf(before, after);
    if (changes.changed.length === 0) return;
    await writeAudit(tx, {
      actorUserId,
      action: `settings.${key}.set`,
      entity: 'settings',
      entityId: key,
      details: changes,
      ip: meta.ip,
    });
  }

  function paymentsView(stored: StoredPaymentSettings): PaymentsSettingsView {
    return {
      ...paymentsDocumentOf(stored),
      pixConfigured: pixReceiverOf(stored, config) !== null,
      paypalConfigured: config.payments.paypal !== undefined,
      pagbankConfigured: config.payments.pagbank !== undefined,
      currenciesWithoutOnlineMethod: currenciesWithoutOnlineMethod(
        configuredPaymentMethodsOf(stored, config),
      ),
    };
  }

  /** The receiver the form gives with the configured fallbacks must fit a BR Code. */
  function checkPixReceiver(form: PaymentsSettings): void {
    const key = form.pixKey || config.payments.pix.key;
    if (!key) return;
    try {
      buildPixBrCode({
        key,
        merchantName: form.pixMerchantName || config.payments.pix.merchantName,
        merchantCity: form.pixMerchantCity || config.payments.pix.merchantCity,
        amount: 0,
        txid: '***',
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      const field = message.includes('name')
        ? 'pixMerchantName'
        : message.includes('city')
          ? 'pixMerchantCity'
          : 'pixKey';
      throw validationError({ [field]: 'validation.invalid' });
    }
  }

  async function kitSettings(tx: DbOrTx): Promise<ServiceMetadataSettingsView> {
    return { kitManufacturers: (await listKitManufacturers(tx)).map(kitOf) };
  }

  async function sleeveSettings(tx: DbOrTx): Promise<SleevesSettingsView> {
    return { sleeves: (await listLiveSleeves(tx)).map(sleeveOf) };
  }

  const getPayments = async (): Promise<PaymentsSettingsView> =>
    paymentsView(await loadPaymentSettings(db));

  return {
    getPayments,

    async setPayments(
      form: PaymentsSettings,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<PaymentsSettingsView> {
      checkPixReceiver(form);
      await db.transaction(async (tx) => {
        const parsed = paymentSettingsSchema.safeParse(await lockSetting(tx, 'payments'));
        const before = paymentsDocumentOf(parsed.success ? parsed.data : {});
        await saveDocument(tx, 'payments', before, form, actorUserId, meta);
      });
      return getPayments();
    },

    getEmails: (): Promise<EmailsSettings> => loadEmailsSettings(db),

    async setEmails(
      form: EmailsSettings,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<EmailsSettings> {
      await db.transaction(async (tx) => {
        const stored = emailsSettingsSchema.safeParse(await lockSetting(tx, 'emails'));
        const before = stored.success ? stored.data : DEFAULT_EMAILS_SETTINGS;
        await saveDocument(tx, 'emails', before, form, actorUserId, meta);
      });
      return loadEmailsSettings(db);
    },

    getShipping: (): Promise<ShippingSettings> => loadShippingSettings(db),

    async setShipping(
      form: ShippingSettings,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<ShippingSettings> {
      await db.transaction(async (tx) => {
        const stored = shippingSettingsSchema.safeParse(await lockSetting(tx, 'shipping'));
        const before: ShippingSettings = stored.success
          ? stored.data
          : { options: [], motoboyZipRanges: [] };
        await saveDocument(tx, 'shipping', before, form, actorUserId, meta);
      });
      return loadShippingSettings(db);
    },

    getServiceMetadata: (): Promise<ServiceMetadataSettingsView> => kitSettings(db),

    /**
     * Replaces the kit manufacturers with the list: updates those with an id, creates the
     * others, deletes the stored ones left out. An unknown id is refused.
     */
    async setServiceMetadata(
      form: ServiceMetadataSettings,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<ServiceMetadataSettingsView> {
      try {
        await db.transaction(async (tx) => {
          const stored = new Map((await listKitManufacturers(tx, true)).map((r) => [r.id, r]));
          const unknown: Record<string, string> = {};
          form.kitManufacturers.forEach((kit, index) => {
            if (kit.id !== undefined && !stored.has(kit.id)) {
              unknown[`kitManufacturers.${index}.id`] = 'validation.invalid';
            }
          });
          if (Object.keys(unknown).length > 0) throw validationError(unknown);

          const audit = (action: string, entityId: number, details: Record<string, unknown>) =>
            writeAudit(tx, {
              actorUserId,
              action: `settings.kit_manufacturer.${action}`,
              entity: 'surgical_kit_manufacturer',
              entityId,
              details,
              ip: meta.ip,
            });

          const kept = new Set(form.kitManufacturers.map((kit) => kit.id));
          const removed = [...stored.values()].filter((row) => !kept.has(row.id));
          await deleteKitManufacturers(
            tx,
            removed.map((row) => row.id),
          );
          for (const row of removed) {
            await audit('delete', row.id, { before: kitOf(row), after: null });
          }

          const updates = form.kitManufacturers.flatMap((kit) => {
            if (kit.id === undefined) return [];
            const row = stored.get(kit.id)!;
            const { id, ...before } = kitOf(row);
            const { id: _id, ...after } = kit;
            const changes = changesOf(before, after);
            return changes.changed.length > 0 ? [{ id, after, changes }] : [];
          });
          // Renamed rows step aside first, so names can swap without tripping the unique index.
          for (const update of updates) {
            if (update.changes.changed.includes('manufactureName')) {
              await updateKitManufacturer(tx, update.id, {
                manufactureName: `renaming:${update.id}:${Date.now()}`,
              });
            }
          }
          for (const update of updates) {
            await updateKitManufacturer(tx, update.id, update.after);
            await audit('update', update.id, update.changes);
          }
          for (const kit of form.kitManufacturers) {
            if (kit.id !== undefined) continue;
            const { id: _id, ...values } = kit;
            const row = await insertKitManufacturer(tx, values);
            await audit('create', row.id, { before: null, after: kitOf(row) });
          }
        });
      } catch (error) {
        if (isKitNameViolation(error)) {
          throw validationError({ kitManufacturers: 'validation.invalid' });
        }
        throw error;
      }
      return kitSettings(db);
    },

    getTreatmentPurposes: (): Promise<TreatmentPurposesSettings> =>
      loadTreatmentPurposesSettings(db),

    /** Saves the names the service data form shows instead of the built-in purpose labels. */
    async setTreatmentPurposes(
      form: TreatmentPurposesSettings,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<TreatmentPurposesSettings> {
      await db.transaction(async (tx) => {
        await lockSetting(tx, 'treatmentPurposes');
        const before = await loadTreatmentPurposesSettings(tx);
        await saveDocument(tx, 'treatmentPurposes', before, form, actorUserId, meta);
      });
      return loadTreatmentPurposesSettings(db);
    },

    getSleeves: (): Promise<SleevesSettingsView> => sleeveSettings(db),

    /**
     * Updates the sleeves with an id (soft deletes those marked `deleted`), creates the others;
     * stored sleeves left out stay as they are. An unknown or deleted id is refused, and so is
     * a name another live sleeve already has.
     */
    async setSleeves(
      form: SleevesSettings,
      actorUserId: number,
      meta: RequestMeta,
    ): Promise<SleevesSettingsView> {
      await db.transaction(async (tx) => {
        const stored = new Map((await listLiveSleeves(tx, true)).map((row) => [row.id, row]));
        const errors: Record<string, string> = {};
        form.sleeves.forEach((sleeve, index) => {
          if (sleeve.id !== undefined && !stored.has(sleeve.id)) {
            errors[`sleeves.${index}.id`] = 'validation.invalid';
          }
        });
        // The names live once the save is done: those of the list and the stored ones left out.
        const mentioned = new Set(form.sleeves.map((sleeve) => sleeve.id));
        const untouched = new Set(
          [...stored.values()]
            .filter((row) => !mentioned.has(row.id))
            .map((row) => row.sleeveManufacture.toLowerCase()),
        );
        form.sleeves.forEach((sleeve, index) => {
          if (!sleeve.deleted && untouched.has(sleeve.sleeveManufacture.toLowerCase())) {
            errors[`sleeves.${index}.sleeveManufacture`] = 'validation.invalid';
          }
        });
        if (Object.keys(errors).length > 0) throw validationError(errors);

        const audit = (action: string, entityId: number, details: Record<string, unknown>) =>
          writeAudit(tx, {
            actorUserId,
            action: `settings.sleeve.${action}`,
            entity: 'sleeve',
            entityId,
            details,
            ip: meta.ip,
          });

        for (const sleeve of form.sleeves) {
          const values = { sleeveManufacture: sleeve.sleeveManufacture, prices: sleeve.prices };
          if (sleeve.id === undefined) {
            if (sleeve.deleted) continue;
            const row = await insertSleeve(tx, values);
            await audit('create', row.id, { before: null, after: sleeveOf(row) });
            continue;
          }
          const row = stored.get(sleeve.id)!;
          if (sleeve.deleted) {
            await updateSleeve(tx, row.id, { deletedAt: new Date() });
            await audit('delete', row.id, { before: sleeveOf(row), after: null });
            continue;
          }
          const { id, ...before } = sleeveOf(row);
          const changes = changesOf(before, values);
          if (changes.changed.length === 0) continue;
          await updateSleeve(tx, id, values);
          await audit('update', id, changes);
        }
      });
      return sleeveSettings(db);
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
