import { z } from 'zod';
import {
  DEFAULT_PAYMENT_METHOD_SWITCHES,
  PAYMENT_METHODS,
  buildPixBrCode,
  type ConfiguredPaymentMethods,
  type PaymentMethodSwitches,
  type PixReceiver,
} from '@dentflow/domain';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { findSetting } from './settings.repository';

/**
 * The `payments` settings document as stored (administration edits it through
 * `paymentsSettingsSchema`): the Pix receiver and which methods are on. Lenient on read, so a
 * document written before a field existed still counts: each Pix field left empty falls back to
 * `PIX_KEY`, `PIX_MERCHANT_NAME`, `PIX_MERCHANT_CITY`, and a method without a switch is on.
 */
export const paymentSettingsSchema = z.object({
  pixKey: z.string().trim().max(77).optional(),
  pixMerchantName: z.string().trim().max(25).optional(),
  pixMerchantCity: z.string().trim().max(15).optional(),
  enabled: z
    .object(Object.fromEntries(PAYMENT_METHODS.map((method) => [method, z.boolean().optional()])))
    .partial()
    .optional(),
});
export type StoredPaymentSettings = z.infer<typeof paymentSettingsSchema>;

/** The stored document, or an empty one when none is stored or it cannot be read. */
export async function loadPaymentSettings(db: DbOrTx): Promise<StoredPaymentSettings> {
  const parsed = paymentSettingsSchema.safeParse(await findSetting(db, 'payments'));
  return parsed.success ? parsed.data : {};
}

/** Which methods are switched on (a method without a stored switch is on). */
export function paymentSwitchesOf(stored: StoredPaymentSettings): PaymentMethodSwitches {
  const switches = { ...DEFAULT_PAYMENT_METHOD_SWITCHES };
  for (const method of PAYMENT_METHODS) {
    const value = stored.enabled?.[method];
    if (typeof value === 'boolean') switches[method] = value;
  }
  return switches;
}

/** The receiver the stored fields and the configuration give, when a BR Code can carry it. */
export function pixReceiverOf(stored: StoredPaymentSettings, config: Config): PixReceiver | null {
  const key = stored.pixKey || config.payments.pix.key;
  if (!key) return null;
  const receiver = {
    key,
    merchantName: stored.pixMerchantName || config.payments.pix.merchantName,
    merchantCity: stored.pixMerchantCity || config.payments.pix.merchantCity,
  };
  // A receiver no BR Code can carry (e.g. a name with no ASCII letter) is no receiver.
  try {
    buildPixBrCode({ ...receiver, amount: 0, txid: '***' });
  } catch {
    return null;
  }
  return receiver;
}

/** Who receives Pix payments, or null when no key is known (Pix is then not offered). */
export async function loadPixReceiver(db: DbOrTx, config: Config): Promise<PixReceiver | null> {
  return pixReceiverOf(await loadPaymentSettings(db), config);
}

/**
 * Which methods can be offered now as far as the platform goes: switched on, and configured when
 * they need it (the caller's capabilities and the currency are `availablePaymentMethods`' part).
 */
export async function configuredPaymentMethods(
  db: DbOrTx,
  config: Config,
): Promise<Required<ConfiguredPaymentMethods>> {
  return configuredPaymentMethodsOf(await loadPaymentSettings(db), config);
}

/** `configuredPaymentMethods` of a stored document already read. */
export function configuredPaymentMethodsOf(
  stored: StoredPaymentSettings,
  config: Config,
): Required<ConfiguredPaymentMethods> {
  const on = paymentSwitchesOf(stored);
  return {
    pix: on.pix && pixReceiverOf(stored, config) !== null,
    paypal: on.paypal && config.payments.paypal !== undefined,
    pagseguro: on.pagseguro && config.payments.pagbank !== undefined,
    physical: on.physical,
    dentalPrev: on.dentalPrev,
  };
}
