import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_TYPES,
  SHIPPING_OPTIONS,
  type CaseDetail,
  type CaseEvent,
  type CasePage,
  type CheckoutResult,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../src/adapters/events/case-events';
import { DEMO_SHIPPING } from '../src/db/seed/demo/shop';
import { caseServices, notifications } from '../src/db/schema';
import {
  caseApi,
  caseInStatus,
  codeOf,
  completeServiceData,
  createUser,
  insertRequiredFiles,
  objOf,
} from './support/cases-fixtures';
import { grantCapabilities } from './support/payments-fixtures';
import {
  PATIENT,
  RIO,
  SAO_PAULO,
  cartItem,
  delivery,
  order,
  shopCall,
  sleeveIdByName,
} from './support/shop-fixtures';
import { json, startTestApp, type Session, type TestApp } from './support/test-app';

/**
 * What the makers see and the dispatch (docs/permissions.md, "Production and delivery"): every
 * reader gets what to manufacture and where it goes, money only those who see the transactions;
 * a printer or staff records the dispatch of a made case once, which notifies the owner.
 */

let t: TestApp;
let owner: Session;
let supervisor: Session;
let planner: Session;
let printer: Session;
let partner: Session;
let instructor: Session;
let stranger: Session;
let call: ReturnType<typeof caseApi>;
const published: CaseEventMessage[] = [];
const db = () => t.app.database.db;
const TODAY = () => new Date().toISOString().slice(0, 10);
const sedexDays = DEMO_SHIPPING.options.find((o) => o.shipmentType === SHIPPING_OPTIONS.sedex)!;

const ok = <T = CaseDetail>(response: LightMyRequestResponse): T => {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return objOf<T>(response);
};
const read = async (session: Session, caseId: number) =>
  ok(await call(session, 'GET', `${caseId}/get`));

beforeAll(async () => {
  t = await startTestApp();
  call = caseApi(t.app);
  instructor = await createUser(t.app, ['instructor']);
  [owner, supervisor, planner, printer, partner, stranger] = await Promise.all([
    createUser(t.app, ['doctor'], { language: 'ptBR', instructorId: instructor.profile.id }),
    createUser(t.app, ['supervisor']),
    createUser(t.app, ['planner']),
    createUser(t.app, ['printer']),
    createUser(t.app, ['partner']),
    createUser(t.app, ['doctor']),
  ]);
  await grantCapabilities(db(), owner.profile.id);
  t.app.caseEvents.on((event) => {
    published.push(event);
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/**
 * The guide combo with 3 Neodent sleeves, ordered in the shop with this delivery and paid by
 * card machine (pre-paid at once); with its data and a client file it moves to execute by
 * itself. Then planned, approved and printed up to `until`.
 */
async function orderedGuide(
  shipmentType: number,
  until: 'execute' | 'print' | 'finished',
): Promise<{ caseId: number; order: CheckoutResult }> {
  const item = await cartItem(db(), 'COMBO-GUIDE', {
    planningExtraData: PATIENT,
    sleeves: { sleevesManufacture: await sleeveIdByName(db(), 'Neodent'), sleevesQtd: 3 },
  });
  const placed = await shopCall(t.app)(
    owner,
    'POST',
    '/api/v1/shop/checkout',
    order({
      items: [item],
      shipment: delivery(shipmentType),
      paymentMethod: 'physical',
      currency: 'BRL',
    }),
  );
  const result = ok<CheckoutResult>(placed);
  const caseId = result.caseId;
  await insertRequiredFiles(db(), caseId, owner.profile.id);
  const services = await db()
    .select({ id: caseServices.id })
    .from(caseServices)
    .where(eq(caseServices.caseId, caseId));
  for (const service of services) {
    ok(
      await call(owner, 'POST', `${caseId}/services/${service.id}/data`, {
        dataVersion: 3,
        data: completeServiceData(),
      }),
    );
  }
  expect((await read(owner, caseId)).caseStatus).toBe('execute');
  ok(await call(supervisor, 'POST', `${caseId}/planner`, { plannerId: planner.profile.id }));
  if (until === 'execute') return { caseId, order: result };
  const requested = ok(
    await call(planner, 'POST', `${caseId}/move`, { action: 'requestApproval' }),
  );
  ok(
    await call(owner, 'POST', `${caseId}/move`, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'Aprovado',
      serviceIds: requested.services.map((s) => s.id),
    }),
  );
  ok(await call(planner, 'POST', `${caseId}/move`, { action: 'startPrint' }));
  if (until === 'print') return { caseId, order: result };
  ok(await call(printer, 'POST', `${caseId}/move`, { action: 'finish' }));
  return { caseId, order: result };
}

describe('GET /case/{id}/get: what to make, where it goes, money for those who see it', () => {
  let caseId: number;
  let placed: CheckoutResult;
  beforeAll(async () => {
    ({ caseId, order: placed } = await orderedGuide(SHIPPING_OPTIONS.sedex, 'finished'));
    ok(
      await call(supervisor, 'POST', `${caseId}/users`, {
        userId: partner.profile.id,
        triggerNotification: true,
      }),
    );
  }, 60_000);

  it('keeps the first order’s delivery address as the case’s address', async () => {
    expect((await read(owner, caseId)).address).toEqual(SAO_PAULO);
  });

  type Reader = [string, boolean, () => Session, string[]];
  const readers: Reader[] = [
    ['the owner', true, () => owner, ['editAddress']],
    ['a supervisor', true, () => supervisor, ['productionSheet', 'dispatch', 'editAddress']],
    ['the planner', false, () => planner, ['productionSheet']],
    ['a printer', false, () => printer, ['productionSheet', 'dispatch']],
    ['a partner member', false, () => partner, []],
    ['the owner’s instructor', false, () => instructor, []],
  ];
  it.each(readers)('%s: manufacture and delivery; money %s', async (_who, money, session, can) => {
    const response = await call(session(), 'GET', `${caseId}/get`);
    const detail = ok(response);
    const manufacturing = detail.services.find((s) => s.printableProduct)!;
    expect(manufacturing.manufacture).toEqual({
      sleeveManufacturer: 'Neodent',
      sleeveQuantity: 3,
      kit: true,
      jaw: 'upper',
      teeth: [],
      implantSystem: 'Neodent / GM',
    });
    expect(detail.services.find((s) => !s.printableProduct)!.manufacture).toBeNull();
    expect(detail.delivery).toMatchObject({
      shipmentType: SHIPPING_OPTIONS.sedex,
      address: SAO_PAULO,
      days: sedexDays.days,
    });
    expect(detail.dispatch).toBeNull();
    expect(detail.productionActions).toEqual(can);
    if (money) {
      expect(detail.delivery?.money).toEqual({
        currency: 'BRL',
        fee: sedexDays.fees.BRL,
        orderTotal: placed.breakdown.total,
        paymentMethod: 'physical',
      });
    } else {
      expect(detail.delivery).not.toHaveProperty('money');
      // Not hidden somewhere else in the answer either.
      expect(response.body).not.toContain('"money"');
      expect(response.body).not.toContain('physical');
    }
  });

  it('another doctor still gets 404', async () => {
    expect((await call(stranger, 'GET', `${caseId}/get`)).statusCode).toBe(404);
  });
});

describe('POST /case/{id}/dispatch', () => {
  it('waits until the case is made: 409 while printing, 404 for a printer before print', async () => {
    const { caseId } = await orderedGuide(SHIPPING_OPTIONS.pac, 'execute');
    const body = { date: TODAY(), carrier: 'Correios' };
    expect((await call(printer, 'POST', `${caseId}/dispatch`, body)).statusCode).toBe(404);
    const early = await call(supervisor, 'POST', `${caseId}/dispatch`, body);
    expect(early.statusCode).toBe(409);
    expect(codeOf(early)).toBe('CASE_NOT_DISPATCHABLE');

    const printing = (await orderedGuide(SHIPPING_OPTIONS.pac, 'print')).caseId;
    const whilePrinting = await call(printer, 'POST', `${printing}/dispatch`, body);
    expect(whilePrinting.statusCode).toBe(409);
    expect(codeOf(whilePrinting)).toBe('CASE_NOT_DISPATCHABLE');
    expect((await read(printer, printing)).productionActions).not.toContain('dispatch');
  }, 60_000);

  it('a printer records it once; the owner is told and sees it on the case and its card', async () => {
    const { caseId } = await orderedGuide(SHIPPING_OPTIONS.sedex, 'finished');
    const body = { date: TODAY(), carrier: 'Correios', trackingCode: 'BR123456789BR' };

    // Who may not: the owner and the planner (403), another doctor (404).
    for (const session of [owner, planner]) {
      const refused = await call(session, 'POST', `${caseId}/dispatch`, body);
      expect(refused.statusCode).toBe(403);
      expect(codeOf(refused)).toBe('FORBIDDEN');
    }
    expect((await call(stranger, 'POST', `${caseId}/dispatch`, body)).statusCode).toBe(404);
    // A shipment names its carrier; the date is not in the future.
    const noCarrier = await call(printer, 'POST', `${caseId}/dispatch`, { date: TODAY() });
    expect(noCarrier.statusCode).toBe(400);
    expect(Object.keys(json<{ fields: Record<string, string> }>(noCarrier).fields)).toEqual([
      'carrier',
    ]);
    const future = await call(printer, 'POST', `${caseId}/dispatch`, {
      ...body,
      date: '2999-01-01',
    });
    expect(future.statusCode).toBe(400);
    expect((await read(owner, caseId)).dispatch).toBeNull();

    const before = published.length;
    const dispatched = ok(await call(printer, 'POST', `${caseId}/dispatch`, body));
    expect(dispatched.dispatch).toMatchObject({
      kind: 'shipped',
      date: TODAY(),
      carrier: 'Correios',
      trackingCode: 'BR123456789BR',
      recordedBy: { id: printer.profile.id },
    });
    expect(dispatched.productionActions).toEqual(['productionSheet']);

    // The owner sees it on the case, in the history and on the list card, and was notified.
    const seen = await read(owner, caseId);
    expect(seen.dispatch).toMatchObject({ kind: 'shipped', trackingCode: 'BR123456789BR' });
    const history = ok<CaseEvent[]>(await call(owner, 'GET', `${caseId}/history`));
    expect(history.at(-1)).toMatchObject({
      action: 'dispatched',
      actor: { id: printer.profile.id },
      detail: {
        kind: 'shipped',
        date: TODAY(),
        carrier: 'Correios',
        trackingCode: 'BR123456789BR',
      },
    });
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.caseId, caseId), eq(notifications.userId, owner.profile.id)));
    expect(told.map((n) => n.eventType)).toContain(NOTIFICATION_TYPES.caseDispatched);
    const toPrinter = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.caseId, caseId), eq(notifications.userId, printer.profile.id)));
    expect(toPrinter).toHaveLength(0);
    const live = published.slice(before).find((event) => event.action === 'dispatched');
    expect(live?.caseId).toBe(caseId);
    expect(live?.detail.notified).toContain(owner.profile.id);
    const page = ok<CasePage>(await call(owner, 'GET', 'list/finished/0?q=' + caseId));
    expect(page.items.find((item) => item.id === caseId)?.dispatch).toBe('shipped');

    // Once only, whoever asks.
    const again = await call(supervisor, 'POST', `${caseId}/dispatch`, body);
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('ALREADY_DISPATCHED');
  }, 60_000);

  it('a local withdraw is ready for pickup, without a carrier', async () => {
    const { caseId } = await orderedGuide(SHIPPING_OPTIONS.localWithdraw, 'finished');
    const detail = await read(printer, caseId);
    expect(detail.delivery).toMatchObject({
      shipmentType: SHIPPING_OPTIONS.localWithdraw,
      address: null,
    });
    // Nothing goes anywhere: the case keeps no delivery address.
    expect(detail.address).toBeNull();
    const withCarrier = await call(printer, 'POST', `${caseId}/dispatch`, {
      date: TODAY(),
      carrier: 'Correios',
    });
    expect(withCarrier.statusCode).toBe(400);
    const ready = ok(await call(supervisor, 'POST', `${caseId}/dispatch`, { date: TODAY() }));
    expect(ready.dispatch).toMatchObject({ kind: 'readyForPickup', carrier: null });
    const page = ok<CasePage>(await call(owner, 'GET', 'list/finished/0?q=' + caseId));
    expect(page.items.find((item) => item.id === caseId)?.dispatch).toBe('readyForPickup');
  }, 60_000);

  it('a case with nothing made by the lab has nothing to dispatch', async () => {
    const caseId = await caseInStatus(
      { app: t.app, owner, supervisor, planner, printer },
      'finished',
      {
        productCode: 'PLAN-GUIDE',
      },
    );
    const refused = await call(supervisor, 'POST', `${caseId}/dispatch`, {
      date: TODAY(),
      carrier: 'X',
    });
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('CASE_NOT_DISPATCHABLE');
    expect((await read(owner, caseId)).delivery).toBeNull();
  }, 60_000);
});

describe('the case address: the owner changes it until the dispatch', () => {
  it('past new the owner changes the address only; after the dispatch nobody does', async () => {
    const { caseId } = await orderedGuide(SHIPPING_OPTIONS.sedex, 'finished');
    let detail = await read(owner, caseId);
    detail = ok(
      await call(owner, 'POST', `${caseId}/set`, { address: RIO, modifiedAt: detail.modifiedAt }),
    );
    expect(detail.address).toEqual(RIO);
    // The production sheet reads the changed address.
    expect((await read(printer, caseId)).delivery?.address).toEqual(RIO);
    // The rest of the case stays closed to the owner, and the address to the other readers.
    const withPatient = await call(owner, 'POST', `${caseId}/set`, {
      address: SAO_PAULO,
      patient: { fname: 'Ana', lname: 'Lima' },
      modifiedAt: detail.modifiedAt,
    });
    expect(withPatient.statusCode).toBe(403);
    for (const session of [planner, printer]) {
      const refused = await call(session, 'POST', `${caseId}/set`, {
        address: SAO_PAULO,
        modifiedAt: detail.modifiedAt,
      });
      expect(refused.statusCode).toBe(403);
    }

    ok(await call(printer, 'POST', `${caseId}/dispatch`, { date: TODAY(), carrier: 'Correios' }));
    for (const session of [owner, supervisor]) {
      const current = await read(session, caseId);
      expect(current.productionActions).not.toContain('editAddress');
      const late = await call(session, 'POST', `${caseId}/set`, {
        address: SAO_PAULO,
        modifiedAt: current.modifiedAt,
      });
      expect(late.statusCode).toBe(409);
      expect(codeOf(late)).toBe('ALREADY_DISPATCHED');
    }
    expect((await read(owner, caseId)).address).toEqual(RIO);
  }, 60_000);
});
