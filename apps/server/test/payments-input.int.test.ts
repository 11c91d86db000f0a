import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_DESCRIPTION_MAX, RECEIPT_MAX_BYTES, type CheckoutResult } from '@dentflow/domain';
import { pagbankSignature } from '../src/adapters/payments/pagbank';
import { codeOf, createUser } from './support/cases-fixtures';
import {
  INVOICE_CUSTOMER,
  TRANSACTION_ROUTES,
  pdfBytes,
  placeOrder,
  receiptCall,
  receiptForm,
  routeCall,
  storedReceiptFiles,
  transactionSnapshot,
  txCall,
  type TransactionRoute,
} from './support/payments-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * docs/permissions.md "Transactions (payments)": bad input on every payments route is a
 * translated 4xx and changes nothing (the transaction and its receipt, cancel and invoice rows
 * are compared before and after; no receipt file is left in the store). The webhooks refuse what
 * they cannot verify without recording a notice. Who may do what: payments-permissions.int.test.ts.
 */

const PAGBANK_TOKEN = 'test-pagbank-token';

let t: TestApp;
let call: ReturnType<typeof txCall>;
let route: ReturnType<typeof routeCall>;
let receipt: ReturnType<typeof receiptCall>;
const db = () => t.app.database.db;

/** The case owner and payer, in Portuguese: every answer to them is in ptBR. */
let owner: Session;
let supervisor: Session;
let admin: Session;
/** A Pix transaction awaiting payment that every test here leaves exactly as it was. */
let order: CheckoutResult;

const PT = {
  validation: 'Erro de validação, verifique os campos obrigatórios',
  notFound: 'Não encontrado',
  invalidDocument: 'Número de documento inválido',
  invalidCharacters: 'Contém um caractere não permitido',
};

beforeAll(async () => {
  // The PayPal webhook id makes a notice go as far as its parsing; nothing reaches a provider.
  t = await startTestApp({ PAYPAL_WEBHOOK_ID: 'WH-INPUT-TEST' });
  call = txCall(t.app);
  route = routeCall(t.app);
  receipt = receiptCall(t.app);
  [supervisor, admin] = await Promise.all([login(t.app, 'supervisor'), login(t.app, 'admin')]);
  owner = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  order = await placeOrder(t.app, owner, 'pix', { complete: false });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** Who passes each route's role rule, so the answer is about the input. */
const callerOf = (r: TransactionRoute) =>
  r.role === 'admin' ? admin : r.role === 'supervisor' ? supervisor : owner;

const errorOf = (response: LightMyRequestResponse) =>
  json<{ error: string; code: string; fields?: Record<string, string> }>(response);

function expectRefused(response: LightMyRequestResponse, status: number, code: string) {
  expect({ status: response.statusCode, code: codeOf(response) }, response.body).toEqual({
    status,
    code,
  });
  return errorOf(response);
}

/** Runs `attempt` and fails if it changed the transaction, its records or the receipt files. */
async function leavesUnchanged(attempt: () => Promise<void>) {
  const before = await transactionSnapshot(db(), order.transactionId);
  await attempt();
  expect(await transactionSnapshot(db(), order.transactionId)).toEqual(before);
  expect(storedReceiptFiles(t.dataDir, order.transactionId)).toEqual([]);
}

describe('ids', () => {
  const BAD_IDS = ['abc', '0', '-1', '1.5', '99999999999', '2147483648', '%00'];
  const MISSING = 2_147_483_647;
  const caseRoutes = () =>
    [
      [
        'transactions',
        (id: string | number) => call(owner, 'GET', `/api/v1/case/${id}/transactions`),
      ],
      ['new', (id: string | number) => call(owner, 'POST', `${id}/new`, { paymentMethod: 'pix' })],
    ] as const;

  it('a malformed id is 400 on the id, translated, on every route', async () => {
    await leavesUnchanged(async () => {
      for (const id of BAD_IDS) {
        for (const r of TRANSACTION_ROUTES) {
          const refused = expectRefused(await route(callerOf(r), r, id), 400, 'VALIDATION_ERROR');
          expect(refused.fields, `${r.name} ${id}`).toHaveProperty('id');
        }
        for (const [name, send] of caseRoutes()) {
          const refused = expectRefused(await send(id), 400, 'VALIDATION_ERROR');
          expect(refused.fields, `${name} ${id}`).toHaveProperty('id');
          expect(refused.error).toBe(PT.validation);
        }
      }
    });
  });

  it('the provider returns refuse a malformed query (400 on the field)', async () => {
    await leavesUnchanged(async () => {
      for (const provider of ['paypal', 'pagseguro']) {
        for (const query of [
          `token=${'T'.repeat(101)}`,
          `PayerID=${'P'.repeat(101)}`,
          'token=a%00b',
        ]) {
          const url = `/api/v1/notification/${provider}/transaction/${order.transactionId}?${query}`;
          const refused = expectRefused(await call(owner, 'GET', url), 400, 'VALIDATION_ERROR');
          expect(Object.keys(refused.fields ?? {}), query).toEqual([query.split('=')[0]]);
        }
      }
    });
  });

  it('an unknown id is 404 NOT_FOUND on every route', async () => {
    await leavesUnchanged(async () => {
      for (const r of TRANSACTION_ROUTES) {
        const refused = expectRefused(await route(callerOf(r), r, MISSING), 404, 'NOT_FOUND');
        if (callerOf(r) === owner) expect(refused.error).toBe(PT.notFound);
      }
      for (const [, send] of caseRoutes()) {
        expect(expectRefused(await send(MISSING), 404, 'NOT_FOUND').error).toBe(PT.notFound);
      }
    });
  });
});

describe('JSON bodies', () => {
  const ADDRESS = INVOICE_CUSTOMER.address;
  /** route, body, the fields the answer must name. */
  const CASES: [string, unknown, string[]][] = [
    ['authReceipt', {}, ['approve']],
    ['authReceipt', { approve: 'yes' }, ['approve']],
    ['authCancel', {}, ['authorize']],
    ['authCancel', { authorize: 1 }, ['authorize']],
    ['checkPhysicalPayment', { confirm: 'yes' }, ['confirm']],
    ['setInvoiceNumber', {}, ['invoiceNumber']],
    ['setInvoiceNumber', { invoiceNumber: 12 }, ['invoiceNumber']],
    ['setInvoiceNumber', { invoiceNumber: '' }, ['invoiceNumber']],
    ['setInvoiceNumber', { invoiceNumber: '   ' }, ['invoiceNumber']],
    ['setInvoiceNumber', { invoiceNumber: 'N'.repeat(61) }, ['invoiceNumber']],
    ['cancel', {}, ['reasonId', 'description']],
    ['cancel', { reasonId: '1', description: 'Gave up' }, ['reasonId']],
    ['cancel', { reasonId: 4, description: 'Gave up' }, ['reasonId']],
    ['cancel', { reasonId: 5, description: 'Gave up' }, ['reasonId']],
    ['cancel', { reasonId: 1.5, description: 'Gave up' }, ['reasonId']],
    ['cancel', { reasonId: 1 }, ['description']],
    ['cancel', { reasonId: 1, description: '   ' }, ['description']],
    ['cancel', { reasonId: 1, description: 42 }, ['description']],
    ['setInvoiceCustomer', {}, ['customerName', 'documentType', 'document', 'address']],
    ['setInvoiceCustomer', { ...INVOICE_CUSTOMER, customerName: 7 }, ['customerName']],
    ['setInvoiceCustomer', { ...INVOICE_CUSTOMER, documentType: 'RG' }, ['documentType']],
    ['setInvoiceCustomer', { ...INVOICE_CUSTOMER, email: 'not-an-email' }, ['email']],
    ['setInvoiceCustomer', { ...INVOICE_CUSTOMER, address: 'Paulista' }, ['address']],
    [
      'setInvoiceCustomer',
      { ...INVOICE_CUSTOMER, address: { ...ADDRESS, city: '' } },
      ['address.city'],
    ],
    [
      'setInvoiceCustomer',
      { ...INVOICE_CUSTOMER, address: { ...ADDRESS, zipCode: undefined, address: ' ' } },
      ['address.zipCode', 'address.address'],
    ],
  ];

  it.each(CASES)('%s %j → 400 naming the fields', async (name, body, fields) => {
    const r = TRANSACTION_ROUTES.find((candidate) => candidate.name === name)!;
    await leavesUnchanged(async () => {
      const refused = expectRefused(
        await route(callerOf(r), r, order.transactionId, body as object),
        400,
        'VALIDATION_ERROR',
      );
      for (const field of fields) expect(refused.fields).toHaveProperty([field]);
    });
  });

  it('an invalid CPF is refused on the document, in the caller’s language', async () => {
    await leavesUnchanged(async () => {
      for (const document of ['529.982.247-24', '111.111.111-11', '1234']) {
        const refused = expectRefused(
          await call(owner, 'POST', `${order.transactionId}/setInvoiceCustomer`, {
            ...INVOICE_CUSTOMER,
            document,
          }),
          400,
          'VALIDATION_ERROR',
        );
        expect(refused.error).toBe(PT.validation);
        expect(refused.fields).toEqual({ document: PT.invalidDocument });
      }
    });
  });

  it('the payment method of a new transaction must be a known one', async () => {
    await leavesUnchanged(async () => {
      for (const body of [{}, { paymentMethod: 1 }, { paymentMethod: 'bitcoin' }]) {
        const refused = expectRefused(
          await call(owner, 'POST', `${order.caseId}/new`, body),
          400,
          'VALIDATION_ERROR',
        );
        expect(refused.fields).toHaveProperty('paymentMethod');
      }
    });
  });

  it('text the database cannot store (NUL) is 400 on the field', async () => {
    await leavesUnchanged(async () => {
      const cancel = expectRefused(
        await call(owner, 'POST', `${order.transactionId}/cancel`, {
          reasonId: 1,
          description: 'Gave\u0000up',
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(cancel.fields).toEqual({ description: PT.invalidCharacters });
      const invoice = expectRefused(
        await call(owner, 'POST', `${order.transactionId}/setInvoiceCustomer`, {
          ...INVOICE_CUSTOMER,
          customerName: 'Ana\u0000Lima',
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(invoice.fields).toHaveProperty('customerName');
    });
  });

  it('a body that is not JSON, or not an object, is 400', async () => {
    await leavesUnchanged(async () => {
      const broken = await t.app.inject({
        method: 'POST',
        url: `/api/v1/case/transaction/${order.transactionId}/cancel`,
        headers: { ...bearer(owner), 'content-type': 'application/json' },
        payload: '{"reasonId": 1, "description": ',
      });
      expectRefused(broken, 400, 'BAD_REQUEST');
      const array = await t.app.inject({
        method: 'POST',
        url: `/api/v1/case/transaction/${order.transactionId}/cancel`,
        headers: { ...bearer(owner), 'content-type': 'application/json' },
        payload: '[1, "Gave up"]',
      });
      expectRefused(array, 400, 'VALIDATION_ERROR');
    });
  });
});

describe('receipts', () => {
  const send = (
    justification: string | null,
    file?: { name: string; bytes: Buffer; type?: string },
  ) => receipt(owner, order.transactionId, receiptForm(justification, file ?? null));

  it('a justification over 75 characters is 400 on the field (with or without a file)', async () => {
    await leavesUnchanged(async () => {
      const long = 'x'.repeat(RECEIPT_DESCRIPTION_MAX + 1);
      for (const response of [
        await send(long),
        await send(long, { name: 'receipt.pdf', bytes: pdfBytes() }),
      ]) {
        const refused = expectRefused(response, 400, 'VALIDATION_ERROR');
        expect(refused.fields).toHaveProperty('justification');
        expect(refused.error).toBe(PT.validation);
      }
    });
  });

  it('neither a file nor a justification is 400', async () => {
    await leavesUnchanged(async () => {
      for (const response of [
        await send(null),
        await send('   '),
        await send('', { name: 'empty.pdf', bytes: Buffer.alloc(0) }),
      ]) {
        expect(expectRefused(response, 400, 'VALIDATION_ERROR').fields).toHaveProperty('receipt');
      }
    });
  });

  it('a file one byte over the limit is 413 and nothing is kept', async () => {
    await leavesUnchanged(async () => {
      const refused = expectRefused(
        await send('too big', { name: 'big.pdf', bytes: pdfBytes(RECEIPT_MAX_BYTES + 1) }),
        413,
        'FILE_TOO_LARGE',
      );
      expect(refused.fields).toHaveProperty('receipt');
    });
  });

  it('a file that is neither PDF nor an image is 415, whatever it claims to be', async () => {
    await leavesUnchanged(async () => {
      for (const file of [
        {
          name: 'receipt.pdf',
          bytes: Buffer.from('just some text, not a PDF'),
          type: 'application/pdf',
        },
        {
          name: 'receipt.exe',
          bytes: Buffer.from('MZ\u0090\u0000binary'),
          type: 'application/octet-stream',
        },
      ]) {
        expectRefused(await send('paid', file), 415, 'FILE_TYPE_NOT_ALLOWED');
      }
    });
  });

  it('a request that is not multipart is 415', async () => {
    await leavesUnchanged(async () => {
      expectRefused(
        await receipt(owner, order.transactionId, {
          payload: { justification: 'paid' },
          headers: { 'content-type': 'application/json' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectRefused(
        await receipt(owner, order.transactionId, {
          payload: 'justification=paid',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });
  });

  it('a justification with a NUL character is 400 on the field', async () => {
    await leavesUnchanged(async () => {
      for (const response of [
        await send('paid\u0000today'),
        await send('paid\u0000today', { name: 'receipt.pdf', bytes: pdfBytes() }),
      ]) {
        const refused = expectRefused(response, 400, 'VALIDATION_ERROR');
        expect(refused.fields).toEqual({ justification: PT.invalidCharacters });
      }
    });
  });

  it('a file name with a NUL character is 400', async () => {
    await leavesUnchanged(async () => {
      expectRefused(
        await send('paid', { name: 'receipt\u0000.pdf', bytes: pdfBytes() }),
        400,
        'VALIDATION_ERROR',
      );
    });
  });

  it('a broken multipart body (cut short, or without its boundary) is 400', async () => {
    await leavesUnchanged(async () => {
      const whole = receiptForm('paid', { name: 'receipt.pdf', bytes: pdfBytes() });
      const cut = {
        payload: whole.payload.subarray(0, whole.payload.length - 40),
        headers: whole.headers,
      };
      expectRefused(await receipt(owner, order.transactionId, cut), 400, 'BAD_REQUEST');
      const noBoundary = {
        payload: whole.payload,
        headers: { 'content-type': 'multipart/form-data' },
      };
      expectRefused(await receipt(owner, order.transactionId, noBoundary), 400, 'BAD_REQUEST');
    });
  });
});

describe('provider notices', () => {
  const noticeCount = async () => {
    const result = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from payment_notices`,
    );
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };
  const post = (
    provider: 'paypal' | 'pagseguro',
    payload: string,
    headers: Record<string, string>,
  ) => t.app.inject({ method: 'POST', url: `/api/v1/notification/${provider}`, headers, payload });
  const PAYPAL_HEADERS = {
    'content-type': 'application/json',
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.test/cert.pem',
    'paypal-transmission-id': 'T-1',
    'paypal-transmission-sig': 'c2lnbmF0dXJl',
    'paypal-transmission-time': new Date().toISOString(),
  };

  it('PayPal: garbage, an empty body or a non-object is 400 and records nothing', async () => {
    const before = await noticeCount();
    for (const body of ['garbage', '', '[1,2]', '"text"']) {
      for (const headers of [PAYPAL_HEADERS, { 'content-type': 'text/plain' }]) {
        expectRefused(await post('paypal', body, headers), 400, 'BAD_REQUEST');
      }
    }
    // The notices are read as raw text up to 256 KiB.
    const huge = JSON.stringify({ id: 'WH-1', padding: 'x'.repeat(256 * 1024) });
    expectRefused(await post('paypal', huge, PAYPAL_HEADERS), 413, 'PAYLOAD_TOO_LARGE');
    expect(await noticeCount()).toBe(before);
  });

  it('PagBank: no or a wrong signature is 401, a signed body that is not a JSON order 400; nothing recorded', async () => {
    const before = await noticeCount();
    const notice = JSON.stringify({ id: 'ORDE_0001', reference_id: 'DF-1', charges: [] });
    const signed = (body: string, token = PAGBANK_TOKEN) => ({
      'content-type': 'application/json',
      'x-authenticity-token': pagbankSignature(token, body),
    });
    expectRefused(
      await post('pagseguro', notice, signed(notice, 'not-the-token')),
      401,
      'NOT_AUTHORIZED',
    );
    expectRefused(
      await post('pagseguro', notice, { 'x-authenticity-token': 'abc123' }),
      401,
      'NOT_AUTHORIZED',
    );
    for (const body of ['not json', '', '[]', JSON.stringify({ hello: 'world' })]) {
      expectRefused(await post('pagseguro', body, signed(body)), 400, 'BAD_REQUEST');
      expectRefused(
        await post('pagseguro', body, { 'content-type': 'text/plain' }),
        401,
        'NOT_AUTHORIZED',
      );
    }
    expect(await noticeCount()).toBe(before);
  });
});
