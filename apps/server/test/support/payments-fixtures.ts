import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { CheckoutResult, PaymentStatus, TransactionView } from '@dentflow/domain';
import type { Db } from '../../src/db/client';
import { caseServices, users } from '../../src/db/schema';
import { completeServiceData, insertPublicAttachment } from './cases-fixtures';
import { PATIENT, cartItem, order, shopCall } from './shop-fixtures';
import { bearer, json, type Session } from './test-app';

/** Payments test helpers: an order placed through the real checkout, then the transaction API. */

export const txCall =
  (app: FastifyInstance) =>
  (
    session: Session | null,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url: url.startsWith('/api/') ? url : `/api/v1/case/transaction/${url}`,
      headers: session ? bearer(session) : {},
      ...(payload ? { payload } : {}),
    });

export const viewOf = (response: LightMyRequestResponse) =>
  json<{ obj: TransactionView }>(response).obj;

/** Gives a user the card machine and insurance capabilities. */
export async function grantCapabilities(db: Db, userId: number): Promise<void> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  await db
    .update(users)
    .set({
      dataCapabilities: { ...row!.dataCapabilities, physicalCreditCard: true, dentalPrev: true },
    })
    .where(eq(users.id, userId));
}

/**
 * A checkout of the guide planning in the session's currency with this method; with `complete`
 * the case's other checks pass (service data, a public client file), so paying moves it on.
 */
export async function placeOrder(
  app: FastifyInstance,
  session: Session,
  paymentMethod: string,
  options: { currency?: 'BRL' | 'USD'; complete?: boolean } = {},
): Promise<CheckoutResult> {
  const db = app.database.db;
  const item = await cartItem(db, 'PLAN-GUIDE', { planningExtraData: PATIENT });
  const response = await shopCall(app)(
    session,
    'POST',
    '/api/v1/shop/checkout',
    order({ items: [item], paymentMethod, currency: options.currency ?? 'BRL' }),
  );
  if (response.statusCode !== 200) throw new Error(`checkout ${response.body}`);
  const result = json<{ obj: CheckoutResult }>(response).obj;
  if (options.complete ?? true) {
    // The client's file, then the service data through the case's own route: a change of the
    // case, which moves it on by itself once it is also paid.
    await insertPublicAttachment(db, result.caseId, session.profile.id);
    const services = await db
      .select({ id: caseServices.id })
      .from(caseServices)
      .where(eq(caseServices.caseId, result.caseId));
    for (const service of services) {
      const saved = await app.inject({
        method: 'POST',
        url: `/api/v1/case/${result.caseId}/services/${service.id}/data`,
        headers: bearer(session),
        payload: { dataVersion: 3, data: completeServiceData() },
      });
      if (saved.statusCode !== 200) throw new Error(`service data ${saved.body}`);
    }
  }
  return result;
}

export const statusOf = async (
  app: FastifyInstance,
  session: Session,
  transactionId: number,
): Promise<PaymentStatus> => {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/case/transaction/${transactionId}/refresh`,
    headers: bearer(session),
  });
  return viewOf(response).paymentStatus;
};

/** A multipart body with the receipt's justification and file. */
export function receiptForm(
  justification: string | null,
  file: { name: string; bytes: Buffer; type?: string } | null,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----dentflow${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  if (justification !== null) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="justification"\r\n\r\n${justification}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="receipt"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A small valid PDF header followed by filler up to `size` bytes. */
export const pdfBytes = (size = 2048) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)]);
