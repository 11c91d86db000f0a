/**
 * The payment providers as the payments module sees them: one adapter per provider (PayPal
 * Orders v2, PagBank checkout), each over the provider's REST protocol with time-outs and
 * retries. Amounts are integer minor units; currencies ISO codes.
 */

/** A provider call that failed after its retries (network, time-out, 5xx, refused). */
export class ProviderError extends Error {
  constructor(
    readonly provider: 'paypal' | 'pagbank',
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** What PayPal says about an order (and its capture, once captured). */
export interface PaypalOrderState {
  orderId: string;
  /** CREATED, SAVED, APPROVED, VOIDED, COMPLETED, PAYER_ACTION_REQUIRED. */
  status: string;
  /** Our transaction reference (purchase unit `custom_id`), as PayPal holds it. */
  reference: string | null;
  /** The first capture of the first purchase unit, once captured. */
  captureId: string | null;
  /** COMPLETED, DECLINED, PARTIALLY_REFUNDED, PENDING, REFUNDED, FAILED. */
  captureStatus: string | null;
  /** The captured (else the ordered) amount. */
  amount: number | null;
  currency: string | null;
  /** The capture's (else the order's) `update_time`/`create_time`, ISO. */
  updatedAt: string | null;
  /** The payer's approval link (`rel: approve` or `payer-action`), while there is one. */
  approveUrl: string | null;
}

/** A PayPal webhook event after verification. */
export interface PaypalWebhookEvent {
  id: string;
  /** e.g. PAYMENT.CAPTURE.COMPLETED, PAYMENT.CAPTURE.REFUNDED, CHECKOUT.ORDER.APPROVED. */
  eventType: string;
  createTime: string;
  /** The order the event is about (resource id of an order; supplementary_data of a capture). */
  orderId: string | null;
  /** Our reference (`custom_id`) when the resource carries it. */
  reference: string | null;
  captureId: string | null;
  /** The resource's status (capture or order status). */
  resourceStatus: string | null;
  amount: number | null;
  currency: string | null;
}

export interface PaypalClient {
  createOrder(input: {
    reference: string;
    amount: number;
    currency: string;
    description: string;
    returnUrl: string;
    cancelUrl: string;
  }): Promise<PaypalOrderState>;
  getOrder(orderId: string): Promise<PaypalOrderState>;
  /** Idempotent (PayPal-Request-Id from the order id): capturing twice answers the same capture. */
  captureOrder(orderId: string): Promise<PaypalOrderState>;
  /**
   * Verifies a webhook delivery with PayPal's verify-webhook-signature call; the parsed event when
   * PayPal answers SUCCESS, else null (forged, unverifiable, or no webhook id configured).
   */
  verifyWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string,
  ): Promise<PaypalWebhookEvent | null>;
}

/** What PagBank says about an order paid through a checkout. */
export interface PagbankOrderState {
  orderId: string;
  /** Our transaction reference (`reference_id`). */
  reference: string | null;
  chargeId: string | null;
  /** AUTHORIZED, PAID, IN_ANALYSIS, DECLINED, CANCELED, WAITING. */
  chargeStatus: string | null;
  amount: number | null;
  currency: string | null;
  /** The charge's `paid_at` (else its `created_at`, else the order's), ISO. */
  updatedAt: string | null;
}

export interface PagbankCheckout {
  checkoutId: string;
  /** ACTIVE, EXPIRED, INACTIVE. */
  status: string;
  /** The payment page (`rel: PAY`). */
  payUrl: string | null;
  /** Orders made through this checkout, newest last. */
  orderIds: string[];
}

export interface PagbankClient {
  createCheckout(input: {
    reference: string;
    amount: number;
    currency: 'BRL';
    itemName: string;
    customer: { name: string; email: string } | null;
    redirectUrl: string;
    notificationUrl: string;
  }): Promise<PagbankCheckout>;
  getCheckout(checkoutId: string): Promise<PagbankCheckout>;
  getOrder(orderId: string): Promise<PagbankOrderState>;
  /**
   * Reads a notification: `unsigned` when its `x-authenticity-token` is missing or is not the
   * sha256 of `${token}-${rawBody}` (nothing of the body is read then), `unreadable` when the
   * signed body names no order, else the order (and checkout) it names. The caller never trusts
   * the body's status: it reads the order from PagBank.
   */
  readNotification(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string,
  ): PagbankNotificationReading;
}

export type PagbankNotificationReading =
  | { kind: 'notice'; orderId: string; checkoutId: string | null }
  | { kind: 'unsigned' }
  | { kind: 'unreadable' };

export interface PaymentProviders {
  paypal: PaypalClient | null;
  pagbank: PagbankClient | null;
}
