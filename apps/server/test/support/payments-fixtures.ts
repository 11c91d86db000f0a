import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { CheckoutResult, PaymentStatus, TransactionView } from '@dentflow/domain';
import type { Db } from '../../src/db/client';
import {
  caseServices,
  invoiceCustomers,
  transactionCancels,
  transactionReceipts,
  transactions,
  users,
} from '../../src/db/schema';
import { completeServiceData, insertRequiredFiles } from './cases-fixtures';
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
    await insertRequiredFiles(db, result.caseId, session.profile.id);
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

/** A receipt submission (multipart, or any other body to prove the refusal of one). */
export const receiptCall =
  (app: FastifyInstance) =>
  (
    session: Session | null,
    transactionId: number | string,
    form: { payload: Buffer | string | object; headers: Record<string, string> },
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method: 'POST',
      url: `/api/v1/case/transaction/${transactionId}/submitReceipt`,
      headers: { ...(session ? bearer(session) : {}), ...form.headers },
      payload: form.payload,
    });

/**
 * Everything stored about a transaction: its row and the receipts, cancels and invoice rows that
 * point at it. Equal before and after a refused request: the request changed nothing.
 */
export async function transactionSnapshot(db: Db, transactionId: number) {
  const [row] = await db.select().from(transactions).where(eq(transactions.id, transactionId));
  return {
    transaction: row,
    receipts: await db
      .select()
      .from(transactionReceipts)
      .where(eq(transactionReceipts.transactionId, transactionId)),
    cancels: await db
      .select()
      .from(transactionCancels)
      .where(eq(transactionCancels.transactionId, transactionId)),
    invoices: await db
      .select()
      .from(invoiceCustomers)
      .where(eq(invoiceCustomers.transactionId, transactionId)),
  };
}

/**
 * The files local storage keeps for a transaction's receipts (`DATA_DIR/files/receipts/{id}/…`,
 * the service's key layout), as paths relative to that folder; none when the folder is missing.
 */
export function storedReceiptFiles(dataDir: string, transactionId: number): string[] {
  const root = join(dataDir, 'files', 'receipts', String(transactionId));
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** A valid invoice customer (a valid CPF and a complete address). */
export const INVOICE_CUSTOMER = {
  customerName: 'Clínica Sorriso Ltda',
  documentType: 'CPF',
  document: '529.982.247-25',
  email: 'financeiro@sorriso.test',
  address: {
    zipCode: '01310-100',
    country: 'Brasil',
    state: 'SP',
    city: 'São Paulo',
    address: 'Avenida Paulista, 1000',
    complement: 'Sala 1',
  },
};

/** One route of a transaction (`{id}` is the transaction id) with a body it accepts. */
export interface TransactionRoute {
  name: string;
  method: 'GET' | 'POST';
  url: (id: number | string) => string;
  /** The route's own role rule, checked before the record (others: any signed-in user). */
  role?: 'supervisor' | 'admin';
  /** A valid JSON body; `multipart` sends a receipt with a justification only. */
  body?: object | 'multipart';
}

const transactionUrl = (action: string) => (id: number | string) =>
  `/api/v1/case/transaction/${id}/${action}`;

/** Every per-transaction route (docs/permissions.md "Transactions"), each with a valid body. */
export const TRANSACTION_ROUTES: readonly TransactionRoute[] = [
  { name: 'refresh', method: 'GET', url: transactionUrl('refresh') },
  { name: 'paymentLink', method: 'GET', url: transactionUrl('paymentLink') },
  {
    name: 'paypal return',
    method: 'GET',
    url: (id) => `/api/v1/notification/paypal/transaction/${id}`,
  },
  {
    name: 'pagseguro return',
    method: 'GET',
    url: (id) => `/api/v1/notification/pagseguro/transaction/${id}`,
  },
  {
    name: 'submitReceipt',
    method: 'POST',
    url: transactionUrl('submitReceipt'),
    body: 'multipart',
  },
  {
    name: 'setInvoiceCustomer',
    method: 'POST',
    url: transactionUrl('setInvoiceCustomer'),
    body: INVOICE_CUSTOMER,
  },
  {
    name: 'cancel',
    method: 'POST',
    url: transactionUrl('cancel'),
    body: { reasonId: 1, description: 'Patient gave up' },
  },
  {
    name: 'authReceipt',
    method: 'POST',
    url: transactionUrl('authReceipt'),
    role: 'supervisor',
    body: { approve: true },
  },
  {
    name: 'authCancel',
    method: 'POST',
    url: transactionUrl('authCancel'),
    role: 'supervisor',
    body: { authorize: true },
  },
  {
    name: 'setInvoiceNumber',
    method: 'POST',
    url: transactionUrl('setInvoiceNumber'),
    role: 'admin',
    body: { invoiceNumber: 'NF-0001' },
  },
  {
    name: 'checkPhysicalPayment',
    method: 'POST',
    url: transactionUrl('checkPhysicalPayment'),
    role: 'admin',
    body: { confirm: true },
  },
];

/** Calls a transaction route with its valid body (or `body` instead). */
export const routeCall =
  (app: FastifyInstance) =>
  (
    session: Session | null,
    route: TransactionRoute,
    id: number | string,
    body?: object,
  ): Promise<LightMyRequestResponse> => {
    const auth = session ? bearer(session) : {};
    if (route.body === 'multipart' && !body) {
      const form = receiptForm('Paid at the bank', null);
      return app.inject({
        method: 'POST',
        url: route.url(id),
        headers: { ...auth, ...form.headers },
        payload: form.payload,
      });
    }
    const payload = body ?? (route.body === 'multipart' ? undefined : route.body);
    return app.inject({
      method: route.method,
      url: route.url(id),
      headers: auth,
      ...(payload ? { payload } : {}),
    });
  };
