import { createHash } from 'node:crypto';
import {
  isCaseUpgradeStatus,
  mayOrderForCase,
  needsDeliveryAddress,
  newCaseBodySchema,
  normalizeCouponCode,
  type CartItem,
  type CheckoutBody,
  type CheckoutResult,
  type Currency,
  type Language,
  type NewCaseBody,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { AppContext } from '../../context';
import { assertProfileComplete, findUserById } from '../users';
import { AppError, validationError, zodIssueFields } from '../../http/app-error';
import {
  loadCaseAccess,
  recordCaseActivity,
  loadCaseRecord,
  keepFirstDeliveryAddress,
  moveToCheckingOut,
  addServicesToCase,
  openCase,
  openCaseUpgradedReview,
  refreshCaseDerived,
} from '../cases';
import { couponByCode, recordCouponUse } from '../coupons';
import { openTransaction, startTransaction } from '../payments';
import { configuredPaymentMethods } from '../settings';
import { orderItemsForCase, priceCart, type PricedCart, type ShopCaller } from './cart-pricing';
import {
  claimCheckoutRequest,
  findCheckoutRequest,
  saveCheckoutResponse,
  setServiceManufactureData,
} from './shop.repository';

/** JSON with object keys sorted, so the same order always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The patient of a checkout without a case: the first item's `planningExtraData`
 * (`{patient: {fname, lname, birthDate?, gender?}, observation?}`), as `POST /case/new` takes it.
 */
export function newCaseOfCart(
  items: readonly CartItem[],
): { body: NewCaseBody } | { fields: Record<string, string> } {
  const parsed = newCaseBodySchema.safeParse(items[0]?.planningExtraData ?? {});
  return parsed.success
    ? { body: parsed.data }
    : { fields: zodIssueFields('items.0.planningExtraData', parsed.error.issues) };
}

/**
 * Checkout: prices the order on the server and, in one transaction, adds the
 * services, counts the coupon use, creates the `awaiting_payment` transaction and moves the case
 * to `checkingout` (docs/decisions/014-shop-checkout.md).
 */
export function createCheckoutService(ctx: AppContext) {
  return {
    async checkout(
      caller: ShopCaller,
      body: CheckoutBody,
      language: Language,
    ): Promise<CheckoutResult> {
      const { idempotencyKey, ...order } = body;
      const requestHash = sha256(canonicalJson(order));
      let newCase: NewCaseBody | null = null;
      if (!order.caseId) {
        const patient = newCaseOfCart(order.items);
        if ('fields' in patient) throw validationError(patient.fields);
        newCase = patient.body;
      }

      const { result, messages } = await ctx.db.transaction(async (tx) => {
        const claimId = await claimCheckoutRequest(tx, {
          userId: caller.userId,
          idempotencyKey,
          requestHash,
        });
        if (claimId === null) {
          // The key was used: the same order answers what it answered, another is refused.
          const earlier = await findCheckoutRequest(tx, caller.userId, idempotencyKey);
          if (earlier?.requestHash === requestHash && earlier.response) {
            return { result: earlier.response, messages: [] as CaseEventMessage[] };
          }
          throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED');
        }
        const user = await findUserById(tx, caller.userId);
        if (!user) throw new AppError(401, 'NOT_AUTHORIZED');
        assertProfileComplete(user);
        // Lock order: coupon, then case (every checkout takes them the same way).
        const code = order.coupon ? normalizeCouponCode(order.coupon) : '';
        const lockedCoupon = code ? ((await couponByCode(tx, code, { lock: true })) ?? null) : null;

        let caseId = order.caseId;
        let fromStatus = 'new';
        // A new case opens in the currency the order asks for; a case's order is in the case's.
        let currency: Currency = order.currency;
        let now = new Date();
        if (caseId) {
          const access = await loadCaseAccess(tx, caller, caseId, { lock: true });
          if (!access) throw new AppError(404, 'NOT_FOUND');
          if (access.relation !== 'owner') throw new AppError(403, 'FORBIDDEN');
          if (access.caseArchived) throw new AppError(409, 'CASE_ARCHIVED');
          if (!mayOrderForCase(access.caseStatus)) throw new AppError(409, 'CASE_NOT_ORDERABLE');
          const row = (await loadCaseRecord(tx, caseId))!;
          fromStatus = row.caseStatus;
          currency = row.caseCurrency as Currency;
          // After the stored modifiedAt, so clients see the change.
          now = new Date(Math.max(now.getTime(), row.modifiedAt.getTime() + 1));
        }

        const content = await orderItemsForCase(tx, caseId, order.items);
        const priced = await priceCart(
          tx,
          user,
          { ...order, items: content.items },
          {
            currency,
            language,
            coupon: lockedCoupon,
            now,
            configured: await configuredPaymentMethods(tx, ctx.config),
          },
        );
        refuseUnpayable(priced, order.paymentMethod);

        const published: CaseEventMessage[] = [];
        if (!caseId) {
          const opened = await openCase(
            tx,
            caller.userId,
            { ...newCase!, caseCurrency: currency },
            now,
          );
          caseId = opened.caseId;
          published.push(...opened.messages);
        }

        // The case's services without an order are paid by this one, never added again.
        const serviceIds: number[] = [];
        for (const [index, item] of priced.items.entries()) {
          const reused = content.reused[index] ?? [];
          const services =
            reused.length > 0
              ? reused
              : await addServicesToCase(
                  tx,
                  caseId,
                  [{ productId: item.cartProductId, quantity: item.quantity }],
                  { language, currency },
                  now,
                );
          serviceIds.push(...services.map((service) => service.id));
          if (item.manufactureData && item.productManufactureId !== null) {
            for (const service of services) {
              if (service.productId === item.productManufactureId) {
                await setServiceManufactureData(tx, service.id, item.manufactureData);
              }
            }
          }
        }

        const { breakdown } = priced;
        const transaction = await openTransaction(tx, {
          caseId,
          payerId: caller.userId,
          couponId: priced.coupon?.id ?? null,
          paymentMethod: order.paymentMethod,
          currency: priced.currency,
          breakdown,
          shipment: priced.shipment,
          serviceIds,
          now,
        });
        // The case's address is where its first order goes (the owner may change it until dispatch).
        if (priced.shipment && needsDeliveryAddress(priced.shipment.shipmentType)) {
          await keepFirstDeliveryAddress(tx, caseId, priced.shipment.address);
        }
        if (priced.coupon) {
          await recordCouponUse(tx, {
            couponId: priced.coupon.id,
            userId: caller.userId,
            transactionId: transaction.id,
            units: priced.couponUsesTaken,
          });
        }

        // Past 'checkingout' the order upgrades a case in work: its status stays, staff are told,
        // and the new services wait for their own payment.
        const upgrade = isCaseUpgradeStatus(fromStatus);
        const toStatus = upgrade ? fromStatus : 'checkingout';
        if (upgrade) {
          await openCaseUpgradedReview(tx, caseId, now);
        } else {
          await moveToCheckingOut(tx, {
            caseId,
            actorId: caller.userId,
            cause: 'checkout',
            from: fromStatus,
            ip: caller.ip,
          });
        }
        await refreshCaseDerived(tx, caseId, now);
        const event = {
          caseId,
          actorId: caller.userId,
          action: 'checkout',
          fromStatus,
          toStatus,
          detail: {
            transactionId: transaction.id,
            total: breakdown.total,
            currency,
            ...(upgrade ? { upgrade: true } : {}),
          },
        };
        const recorded = await recordCaseActivity(tx, event);
        published.push({ ...event, detail: recorded.detail, at: now });
        published.push(...(await startTransaction(tx, transaction, caller.userId, now)));

        const answer: CheckoutResult = { caseId, transactionId: transaction.id, breakdown };
        await saveCheckoutResponse(tx, claimId, answer);
        return { result: answer, messages: published };
      });
      ctx.caseEvents.publish(messages);
      return result;
    },
  };
}

/**
 * Refuses an order the checkout may not take: a coupon that does not apply (409 when it ran out,
 * which another order may have just done; 400 otherwise), the problems, a payment
 * method the caller may not use.
 */
function refuseUnpayable(priced: PricedCart, paymentMethod: string): void {
  const rejection = priced.couponRejection;
  if (rejection) {
    throw new AppError(rejection === 'exhausted' ? 409 : 400, 'COUPON_NOT_APPLICABLE', {
      coupon: `domain:couponRejections.${rejection}`,
    });
  }
  const fields = { ...priced.problems };
  if (!priced.paymentMethods.some((method) => method === paymentMethod)) {
    fields.paymentMethod = 'validation.invalid';
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
}
