import { z } from 'zod';
import { buildPixBrCode, type ConfiguredPaymentMethods, type PixReceiver } from '@dentflow/domain';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { findSetting } from '../shop/shop.repository';

/**
 * The `payments` settings document (administration edits it): the Pix receiver. Each field left
 * empty falls back to `PIX_KEY`, `PIX_MERCHANT_NAME`, `PIX_MERCHANT_CITY`.
 */
export const paymentSettingsSchema = z.object({
  pixKey: z.string().trim().max(77).optional(),
  pixMerchantName: z.string().trim().max(25).optional(),
  pixMerchantCity: z.string().trim().max(15).optional(),
});

/** Who receives Pix payments, or null when no key is known (Pix is then not offered). */
export async function loadPixReceiver(db: DbOrTx, config: Config): Promise<PixReceiver | null> {
  const parsed = paymentSettingsSchema.safeParse(await findSetting(db, 'payments'));
  const stored = parsed.success ? parsed.data : {};
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

/** Which methods that need a setting can be offered now. */
export async function configuredPaymentMethods(
  db: DbOrTx,
  config: Config,
): Promise<ConfiguredPaymentMethods> {
  return {
    pix: (await loadPixReceiver(db, config)) !== null,
    paypal: config.payments.paypal !== undefined,
    pagseguro: config.payments.pagbank !== undefined,
  };
}
