import type { Config } from '../../config';
import { createPagbankClient } from './pagbank';
import type { PaymentProviders } from './payment-providers';
import { createPaypalClient } from './paypal';

/** One adapter per configured provider; a provider without credentials is not offered. */
export function createPaymentProviders(config: Config): PaymentProviders {
  const { paypal, pagbank, providerTimeoutMs } = config.payments;
  return {
    paypal: paypal ? createPaypalClient({ ...paypal, timeoutMs: providerTimeoutMs }) : null,
    pagbank: pagbank ? createPagbankClient({ ...pagbank, timeoutMs: providerTimeoutMs }) : null,
  };
}
