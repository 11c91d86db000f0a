import { and, desc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAIL_NOTIFICATIONS,
  NOTIFICATION_TYPES,
  SHIPPING_OPTIONS,
  parseEmv,
  type AdminAnnouncement,
  type EmailsSettings,
  type PaymentLink,
  type PaymentsSettings,
  type PaymentsSettingsView,
  type QuoteResponse,
  type ServiceDataMetadata,
  type ServiceMetadataSettingsView,
  type ShippingSettings,
  type SleevesSettingsView,
} from '@dentflow/domain';
import {
  announcements,
  auditLog,
  cases,
  mailOutbox,
  settings,
  sleeves,
  surgicalKitManufacturers,
  users,
} from '../src/db/schema';
import { notifyCaseUsers } from '../src/modules/notifications/notify';
import { createUser, speakEnglish } from './support/cases-fixtures';
import { grantCapabilities, placeOrder, txCall } from './support/payments-fixtures';
import { PATIENT, cartItem, delivery, order, sleeveIdByName } from './support/shop-fixtures';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Session;
let supervisor: Session;
let doctor: Session;
/** A doctor paying in reais, with the card machine and insurance capabilities. */
let brl: Session;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  await speakEnglish(t.app, 'doctor');
  [admin, supervisor, doctor] = await Promise.all([
    login(t.app, 'admin'),
    login(t.app, 'supervisor'),
    login(t.app, 'doctor'),
  ]);
  brl = await createUser(t.app, ['doctor'], { language: 'ptBR' });
  await grantCapabilities(db(), brl.profile.id);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST';
const call = (session: Session | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url: url.startsWith('/api/') ? url : `/api/v1/settings/${url}`,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });

const obj = <T>(response: LightMyRequestResponse): T => {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return json<{ obj: T }>(response).obj;
};
const errorOf = (response: LightMyRequestResponse) =>
  json<{ code: string; fields?: Record<string, string> }>(response);

/** Expects a 400 VALIDATION_ERROR naming exactly these fields. */
async function expectInvalid(response: Promise<LightMyRequestResponse>, fields: string[]) {
  const answered = await response;
  expect(answered.statusCode, answered.body).toBe(400);
  expect(errorOf(answered).code).toBe('VALIDATION_ERROR');
  expect(Object.keys(errorOf(answered).fields ?? {}).sort()).toEqual([...fields].sort());
}

const auditRows = (entity: string, entityId?: string | number) =>
  db()
    .select()
    .from(auditLog)
    .where(
      entityId === undefined
        ? eq(auditLog.entity, entity)
        : and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(entityId))),
    )
    .orderBy(desc(auditLog.id));

const storedSetting = async (key: string) =>
  (await db().select().from(settings).where(eq(settings.key, key)))[0]?.value;

/** A BRL quote of a guide with two Neodent sleeves, delivered by PAC to São Paulo. */
async function quote(session: Session = brl): Promise<QuoteResponse> {
  const items = [
    await cartItem(db(), 'COMBO-GUIDE', {
      planningExtraData: PATIENT,
      sleeves: { sleevesManufacture: await sleeveIdByName(db(), 'Neodent'), sleevesQtd: 2 },
    }),
  ];
  const { idempotencyKey: _key, ...body } = order({
    items,
    shipment: delivery(SHIPPING_OPTIONS.pac),
    currency: 'BRL',
    paymentMethod: 'pix',
  });
  return obj<QuoteResponse>(await call(session, 'POST', '/api/v1/shop/quote', body));
}

const ALL_ON = { pix: true, physical: true, dentalPrev: true, paypal: true, pagseguro: true };
const paymentsForm = (overrides: Partial<PaymentsSettings> = {}): PaymentsSettings => ({
  pixKey: 'pagamentos@dentflow.example',
  pixMerchantName: 'Dentflow',
  pixMerchantCity: 'Sao Paulo',
  enabled: ALL_ON,
  ...overrides,
});

describe('who may use the settings', () => {
  it('refuses doctors and supervisors with 403 and anonymous callers with 401, changing nothing', async () => {
    const routes: [Method, string, object?][] = [
      ['GET', 'payments'],
      ['POST', 'payments', paymentsForm({ pixKey: 'intruder@example.com' })],
      ['GET', 'emails'],
      ['POST', 'emails', { senderName: 'Intruder', defaultEvents: [] }],
      ['GET', 'serviceMetadata'],
      ['POST', 'serviceMetadata', { kitManufacturers: [] }],
      ['GET', 'sleeves'],
      [
        'POST',
        'sleeves',
        { sleeves: [{ sleeveManufacture: 'Intruder', prices: { BRL: 1, USD: 1 } }] },
      ],
      ['GET', 'shipping'],
      ['POST', 'shipping', { options: [], motoboyZipRanges: [] }],
      ['GET', '/api/v1/profile/list/announcement'],
      [
        'POST',
        '/api/v1/profile/announcement',
        {
          active: true,
          texts: {
            ptBR: { title: 'x', body: '' },
            en: { title: 'x', body: '' },
            es: { title: 'x', body: '' },
          },
        },
      ],
    ];
    const before = {
      settings: await db().select().from(settings).orderBy(settings.key),
      kits: await db().select().from(surgicalKitManufacturers),
      sleeves: await db().select().from(sleeves),
      announcements: await db().select().from(announcements),
    };
    for (const [method, url, payload] of routes) {
      for (const session of [doctor, supervisor]) {
        const refused = await call(session, method, url, payload);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(errorOf(refused).code).toBe('FORBIDDEN');
      }
      const anonymous = await call(null, method, url, payload);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect({
      settings: await db().select().from(settings).orderBy(settings.key),
      kits: await db().select().from(surgicalKitManufacturers),
      sleeves: await db().select().from(sleeves),
      announcements: await db().select().from(announcements),
    }).toEqual(before);
  });
});

describe('payments', () => {
  it('answers the receiver, the switches and which providers are configured — no secret', async () => {
    const view = obj<PaymentsSettingsView>(await call(admin, 'GET', 'payments'));
    expect(view).toEqual({
      pixKey: 'pagamentos@dentflow.example',
      pixMerchantName: expect.any(String),
      pixMerchantCity: expect.any(String),
      enabled: ALL_ON,
      pixConfigured: true,
      paypalConfigured: true,
      pagbankConfigured: true,
      currenciesWithoutOnlineMethod: [],
    });
    const text = JSON.stringify(view);
    expect(text).not.toContain('test-secret');
    expect(text).not.toContain('test-pagbank-token');
  });

  it('a changed Pix key changes the Pix code of the next order, with an audit row', async () => {
    const before = obj<PaymentsSettingsView>(await call(admin, 'GET', 'payments'));
    const saved = obj<PaymentsSettingsView>(
      await call(
        admin,
        'POST',
        'payments',
        paymentsForm({
          pixKey: 'recebimentos@clinica.example',
          pixMerchantName: 'Clínica Sorriso',
          pixMerchantCity: 'Campinas',
        }),
      ),
    );
    expect(saved).toMatchObject({
      pixKey: 'recebimentos@clinica.example',
      pixMerchantName: 'Clínica Sorriso',
      pixMerchantCity: 'Campinas',
      pixConfigured: true,
    });

    const placed = await placeOrder(t.app, brl, 'pix');
    const link = obj<PaymentLink>(
      await txCall(t.app)(brl, 'GET', `${placed.transactionId}/paymentLink`),
    );
    const fields = parseEmv(link.pixCode!);
    expect(fields.get('26')).toContain('recebimentos@clinica.example');
    expect(fields.get('59')).toBe('Clinica Sorriso');
    expect(fields.get('60')).toBe('Campinas');

    const [audit] = await auditRows('settings', 'payments');
    expect(audit).toMatchObject({
      action: 'settings.payments.set',
      actorUserId: admin.profile.id,
      details: {
        changed: ['pixKey', 'pixMerchantName', 'pixMerchantCity'],
        before: {
          pixKey: before.pixKey,
          pixMerchantName: before.pixMerchantName,
          pixMerchantCity: before.pixMerchantCity,
        },
        after: {
          pixKey: 'recebimentos@clinica.example',
          pixMerchantName: 'Clínica Sorriso',
          pixMerchantCity: 'Campinas',
        },
      },
    });
  });

  it('a method switched off disappears from the quote at once, and comes back when on', async () => {
    expect((await quote()).paymentMethods).toEqual([
      'pix',
      'physical',
      'dentalPrev',
      'paypal',
      'pagseguro',
    ]);
    obj(
      await call(
        admin,
        'POST',
        'payments',
        paymentsForm({ enabled: { ...ALL_ON, paypal: false, physical: false } }),
      ),
    );
    expect((await quote()).paymentMethods).toEqual(['pix', 'dentalPrev', 'pagseguro']);
    // A checkout with a method switched off is refused, and nothing is created.
    const refused = await call(
      brl,
      'POST',
      '/api/v1/shop/checkout',
      order({
        items: [await cartItem(db(), 'PLAN-GUIDE', { planningExtraData: PATIENT })],
        paymentMethod: 'paypal',
        currency: 'BRL',
      }),
    );
    expect(refused.statusCode).toBe(400);

    obj(
      await call(admin, 'POST', 'payments', paymentsForm({ enabled: { ...ALL_ON, pix: false } })),
    );
    expect((await quote()).paymentMethods).toEqual([
      'physical',
      'dentalPrev',
      'paypal',
      'pagseguro',
    ]);
    obj(await call(admin, 'POST', 'payments', paymentsForm()));
    expect((await quote()).paymentMethods).toContain('pix');
  });

  it('refuses a name or city no Pix code can carry, a long name, and bad switches (400)', async () => {
    const before = await storedSetting('payments');
    await expectInvalid(
      call(admin, 'POST', 'payments', paymentsForm({ pixMerchantName: '日本語' })),
      ['pixMerchantName'],
    );
    await expectInvalid(
      call(admin, 'POST', 'payments', paymentsForm({ pixMerchantCity: '123 !' })),
      ['pixMerchantCity'],
    );
    await expectInvalid(
      call(admin, 'POST', 'payments', paymentsForm({ pixMerchantName: 'A'.repeat(26) })),
      ['pixMerchantName'],
    );
    await expectInvalid(call(admin, 'POST', 'payments', paymentsForm({ pixKey: 'chave pix' })), [
      'pixKey',
    ]);
    await expectInvalid(
      call(admin, 'POST', 'payments', { ...paymentsForm(), enabled: { pix: 'yes' } }),
      [
        'enabled.pix',
        'enabled.physical',
        'enabled.dentalPrev',
        'enabled.paypal',
        'enabled.pagseguro',
      ],
    );
    expect(await storedSetting('payments')).toEqual(before);
  });

  it('an empty key falls back to the server configuration (none here: Pix is not offered)', async () => {
    const saved = obj<PaymentsSettingsView>(
      await call(admin, 'POST', 'payments', paymentsForm({ pixKey: '' })),
    );
    expect(saved).toMatchObject({ pixKey: '', pixConfigured: false });
    expect((await quote()).paymentMethods).not.toContain('pix');
    obj(await call(admin, 'POST', 'payments', paymentsForm()));
  });
});

describe('shipping', () => {
  it('a changed fee changes the next quote’s total, with an audit row', async () => {
    const table = obj<ShippingSettings>(await call(admin, 'GET', 'shipping'));
    const pac = table.options.find((option) => option.shipmentType === SHIPPING_OPTIONS.pac)!;
    const first = await quote();
    expect(first.breakdown.shippingFee).toBe(pac.fees.BRL);

    const changed: ShippingSettings = {
      ...table,
      options: table.options.map((option) =>
        option.shipmentType === SHIPPING_OPTIONS.pac
          ? { ...option, fees: { BRL: pac.fees.BRL + 1234, USD: pac.fees.USD }, days: 5 }
          : option,
      ),
    };
    expect(obj<ShippingSettings>(await call(admin, 'POST', 'shipping', changed))).toEqual(changed);
    const second = await quote();
    expect(second.breakdown.shippingFee).toBe(pac.fees.BRL + 1234);
    expect(second.breakdown.total).toBe(first.breakdown.total + 1234);

    const [audit] = await auditRows('settings', 'shipping');
    expect(audit).toMatchObject({
      action: 'settings.shipping.set',
      details: { changed: ['options'], before: { options: table.options } },
    });
    obj(await call(admin, 'POST', 'shipping', table));
    expect((await quote()).breakdown.total).toBe(first.breakdown.total);
  });

  it('refuses a malformed table: repeated options, zip ranges out of order, bad zips (400)', async () => {
    const table = obj<ShippingSettings>(await call(admin, 'GET', 'shipping'));
    await expectInvalid(
      call(admin, 'POST', 'shipping', { ...table, options: [...table.options, table.options[0]] }),
      [`options.${table.options.length}.shipmentType`],
    );
    await expectInvalid(
      call(admin, 'POST', 'shipping', {
        ...table,
        motoboyZipRanges: [{ from: '05999999', to: '01000000' }],
      }),
      ['motoboyZipRanges.0.to'],
    );
    await expectInvalid(
      call(admin, 'POST', 'shipping', { ...table, motoboyZipRanges: [{ from: '0100', to: 'x' }] }),
      ['motoboyZipRanges.0.from', 'motoboyZipRanges.0.to'],
    );
    await expectInvalid(
      call(admin, 'POST', 'shipping', {
        ...table,
        options: [{ shipmentType: 7, fees: { BRL: -1, USD: 0 }, days: 1, active: true }],
      }),
      ['options.0.shipmentType', 'options.0.fees.BRL'],
    );
    expect(obj<ShippingSettings>(await call(admin, 'GET', 'shipping'))).toEqual(table);
  });
});

describe('sleeves', () => {
  it('creates, reprices (the next quote uses it) and soft deletes sleeves, each audited', async () => {
    const listed = obj<SleevesSettingsView>(await call(admin, 'GET', 'sleeves')).sleeves;
    const neodent = listed.find((sleeve) => sleeve.sleeveManufacture === 'Neodent')!;
    const first = await quote();

    const saved = obj<SleevesSettingsView>(
      await call(admin, 'POST', 'sleeves', {
        sleeves: [
          { ...neodent, prices: { BRL: neodent.prices.BRL + 100, USD: neodent.prices.USD } },
          { sleeveManufacture: 'Nobel Biocare', prices: { BRL: 5000, USD: 1000 } },
        ],
      }),
    ).sleeves;
    const nobel = saved.find((sleeve) => sleeve.sleeveManufacture === 'Nobel Biocare')!;
    expect(nobel).toEqual({
      id: expect.any(Number),
      sleeveManufacture: 'Nobel Biocare',
      prices: { BRL: 5000, USD: 1000 },
    });
    // Left out of the list: unchanged.
    expect(saved.map((sleeve) => sleeve.sleeveManufacture)).toEqual(
      [...listed.map((sleeve) => sleeve.sleeveManufacture), 'Nobel Biocare'].sort(),
    );
    expect((await quote()).breakdown.sleevesPrice).toBe(first.breakdown.sleevesPrice + 200);
    expect((await auditRows('sleeve', neodent.id))[0]).toMatchObject({
      action: 'settings.sleeve.update',
      details: {
        changed: ['prices'],
        before: { prices: neodent.prices },
        after: { prices: { BRL: neodent.prices.BRL + 100, USD: neodent.prices.USD } },
      },
    });
    expect((await auditRows('sleeve', nobel.id))[0]).toMatchObject({
      action: 'settings.sleeve.create',
    });

    const afterDelete = obj<SleevesSettingsView>(
      await call(admin, 'POST', 'sleeves', { sleeves: [{ ...nobel, deleted: true }] }),
    ).sleeves;
    expect(afterDelete.map((sleeve) => sleeve.id)).not.toContain(nobel.id);
    const [row] = await db().select().from(sleeves).where(eq(sleeves.id, nobel.id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect((await auditRows('sleeve', nobel.id))[0]).toMatchObject({
      action: 'settings.sleeve.delete',
      details: { before: { sleeveManufacture: 'Nobel Biocare' }, after: null },
    });
    obj(await call(admin, 'POST', 'sleeves', { sleeves: [neodent] }));
    expect((await quote()).breakdown.total).toBe(first.breakdown.total);
  });

  it('refuses unknown or deleted ids, repeated names, bad prices (400), changing nothing', async () => {
    const before = await db().select().from(sleeves).orderBy(sleeves.id);
    const neodent = before.find((row) => row.sleeveManufacture === 'Neodent')!;
    const deleted = before.find((row) => row.deletedAt !== null);
    const prices = { BRL: 100, USD: 20 };
    await expectInvalid(
      call(admin, 'POST', 'sleeves', {
        sleeves: [{ id: 999_999, sleeveManufacture: 'Ghost', prices }],
      }),
      ['sleeves.0.id'],
    );
    if (deleted) {
      await expectInvalid(
        call(admin, 'POST', 'sleeves', {
          sleeves: [{ id: deleted.id, sleeveManufacture: 'Back', prices }],
        }),
        ['sleeves.0.id'],
      );
    }
    // The name of a live sleeve left out of the list, and one repeated inside it.
    await expectInvalid(
      call(admin, 'POST', 'sleeves', { sleeves: [{ sleeveManufacture: 'neodent', prices }] }),
      ['sleeves.0.sleeveManufacture'],
    );
    await expectInvalid(
      call(admin, 'POST', 'sleeves', {
        sleeves: [
          { sleeveManufacture: 'Twin', prices },
          { sleeveManufacture: 'TWIN', prices },
        ],
      }),
      ['sleeves.1.sleeveManufacture'],
    );
    await expectInvalid(
      call(admin, 'POST', 'sleeves', {
        sleeves: [{ ...neodent, prices: { BRL: -5, USD: 1.5 } }],
      }),
      ['sleeves.0.prices.BRL', 'sleeves.0.prices.USD'],
    );
    expect(await db().select().from(sleeves).orderBy(sleeves.id)).toEqual(before);
  });
});

describe('service metadata: surgical kits', () => {
  const kitsOffered = async () =>
    obj<ServiceDataMetadata>(
      await call(doctor, 'GET', '/api/v1/metadata/list/serviceData/subsystem'),
    ).kitManufacturers;

  it('creates, edits, deactivates, renames and deletes kit manufacturers; the form offers the result', async () => {
    const stored = obj<ServiceMetadataSettingsView>(await call(admin, 'GET', 'serviceMetadata'));
    expect(stored.kitManufacturers.length).toBeGreaterThan(1);

    const created = obj<ServiceMetadataSettingsView>(
      await call(admin, 'POST', 'serviceMetadata', {
        kitManufacturers: [
          ...stored.kitManufacturers,
          { manufactureName: 'Acme Implants', systems: ['Alpha', 'Beta'], active: true },
        ],
      }),
    ).kitManufacturers;
    const acme = created.find((kit) => kit.manufactureName === 'Acme Implants')!;
    expect(acme).toEqual({
      id: expect.any(Number),
      manufactureName: 'Acme Implants',
      systems: ['Alpha', 'Beta'],
      active: true,
    });
    expect(await kitsOffered()).toContainEqual({
      manufactureName: 'Acme Implants',
      systems: ['Alpha', 'Beta'],
    });
    expect((await auditRows('surgical_kit_manufacturer', acme.id))[0]).toMatchObject({
      action: 'settings.kit_manufacturer.create',
    });

    // Two names swapped in one save, Acme deactivated with a new system.
    const [a, b] = stored.kitManufacturers;
    const swapped = obj<ServiceMetadataSettingsView>(
      await call(admin, 'POST', 'serviceMetadata', {
        kitManufacturers: created.map((kit) =>
          kit.id === a!.id
            ? { ...kit, manufactureName: b!.manufactureName }
            : kit.id === b!.id
              ? { ...kit, manufactureName: a!.manufactureName }
              : kit.id === acme.id
                ? { ...kit, systems: ['Alpha', 'Beta', 'Gamma'], active: false }
                : kit,
        ),
      }),
    ).kitManufacturers;
    expect(swapped.find((kit) => kit.id === a!.id)!.manufactureName).toBe(b!.manufactureName);
    expect(swapped.find((kit) => kit.id === b!.id)!.manufactureName).toBe(a!.manufactureName);
    expect((await kitsOffered()).map((kit) => kit.manufactureName)).not.toContain('Acme Implants');
    expect((await auditRows('surgical_kit_manufacturer', acme.id))[0]).toMatchObject({
      action: 'settings.kit_manufacturer.update',
      details: {
        changed: ['systems', 'active'],
        before: { systems: ['Alpha', 'Beta'], active: true },
        after: { systems: ['Alpha', 'Beta', 'Gamma'], active: false },
      },
    });

    // Left out: deleted. Back to the stored list.
    const restored = obj<ServiceMetadataSettingsView>(
      await call(admin, 'POST', 'serviceMetadata', stored),
    );
    expect(restored).toEqual(stored);
    expect(
      await db()
        .select()
        .from(surgicalKitManufacturers)
        .where(eq(surgicalKitManufacturers.id, acme.id)),
    ).toEqual([]);
    expect((await auditRows('surgical_kit_manufacturer', acme.id))[0]).toMatchObject({
      action: 'settings.kit_manufacturer.delete',
      details: { before: { manufactureName: 'Acme Implants' }, after: null },
    });
  });

  it('refuses repeated names and systems, unknown ids and empty names (400), changing nothing', async () => {
    const stored = obj<ServiceMetadataSettingsView>(await call(admin, 'GET', 'serviceMetadata'));
    const kit = { manufactureName: 'Dup', systems: ['One'], active: true };
    await expectInvalid(
      call(admin, 'POST', 'serviceMetadata', {
        kitManufacturers: [kit, { ...kit, manufactureName: 'DUP' }],
      }),
      ['kitManufacturers.1.manufactureName'],
    );
    await expectInvalid(
      call(admin, 'POST', 'serviceMetadata', {
        kitManufacturers: [{ ...kit, systems: ['One', 'one'] }],
      }),
      ['kitManufacturers.0.systems.1'],
    );
    await expectInvalid(
      call(admin, 'POST', 'serviceMetadata', { kitManufacturers: [{ ...kit, id: 999_999 }] }),
      ['kitManufacturers.0.id'],
    );
    await expectInvalid(
      call(admin, 'POST', 'serviceMetadata', {
        kitManufacturers: [{ ...kit, manufactureName: '  ' }],
      }),
      ['kitManufacturers.0.manufactureName'],
    );
    expect(obj<ServiceMetadataSettingsView>(await call(admin, 'GET', 'serviceMetadata'))).toEqual(
      stored,
    );
  });
});

describe('emails', () => {
  it('answers the defaults until saved, then the saved sender name and sorted events', async () => {
    expect(obj<EmailsSettings>(await call(admin, 'GET', 'emails'))).toEqual({
      senderName: 'Dentflow',
      supportEmail: '',
      defaultEvents: [...DEFAULT_EMAIL_NOTIFICATIONS].sort((a, b) => a - b),
    });
    const saved = obj<EmailsSettings>(
      await call(admin, 'POST', 'emails', {
        senderName: 'Clínica Sorriso',
        supportEmail: ' suporte@sorriso.test ',
        defaultEvents: [NOTIFICATION_TYPES.statusChanged, NOTIFICATION_TYPES.fileAdded, 2],
      }),
    );
    expect(saved).toEqual({
      senderName: 'Clínica Sorriso',
      supportEmail: 'suporte@sorriso.test',
      defaultEvents: [NOTIFICATION_TYPES.fileAdded, NOTIFICATION_TYPES.statusChanged],
    });
    expect(obj<EmailsSettings>(await call(admin, 'GET', 'emails'))).toEqual(saved);
    expect((await auditRows('settings', 'emails'))[0]).toMatchObject({
      action: 'settings.emails.set',
      details: { changed: ['senderName', 'supportEmail', 'defaultEvents'] },
    });
  });

  it('mails users who never chose by the saved default events', async () => {
    const [kase] = await db()
      .select({ id: cases.id, ownerId: cases.ownerId, email: users.email })
      .from(cases)
      .innerJoin(users, eq(users.id, cases.ownerId))
      .where(sql`${users.verifiedAt} is not null and ${users.deletedAt} is null`)
      .limit(1);
    await db().update(users).set({ emailNotifications: null }).where(eq(users.id, kase!.ownerId));
    const mailsOf = async (eventType: number) =>
      (
        await db()
          .select()
          .from(mailOutbox)
          .where(
            and(eq(mailOutbox.recipient, kase!.email), eq(mailOutbox.template, 'notification')),
          )
      ).filter((mail) => mail.params.eventType === eventType && mail.params.caseId === kase!.id)
        .length;
    const notify = (eventType: number) =>
      db().transaction((tx) =>
        notifyCaseUsers(tx, {
          caseId: kase!.id,
          eventType,
          actorId: admin.profile.id,
          resourceId: null,
          path: null,
        }),
      );

    obj(await call(admin, 'POST', 'emails', { senderName: 'Dentflow', defaultEvents: [] }));
    await notify(NOTIFICATION_TYPES.fileAdded);
    expect(await mailsOf(NOTIFICATION_TYPES.fileAdded)).toBe(0);

    obj(
      await call(admin, 'POST', 'emails', {
        senderName: 'Dentflow',
        defaultEvents: [NOTIFICATION_TYPES.fileAdded],
      }),
    );
    await notify(NOTIFICATION_TYPES.fileAdded);
    expect(await mailsOf(NOTIFICATION_TYPES.fileAdded)).toBe(1);
  });

  it('refuses unknown event types and sender names a mail header cannot carry (400)', async () => {
    const before = await storedSetting('emails');
    await expectInvalid(call(admin, 'POST', 'emails', { senderName: 'Ok', defaultEvents: [99] }), [
      'defaultEvents.0',
    ]);
    await expectInvalid(
      call(admin, 'POST', 'emails', { senderName: 'Evil <x@y.z>', defaultEvents: [] }),
      ['senderName'],
    );
    await expectInvalid(call(admin, 'POST', 'emails', { senderName: ' ', defaultEvents: [] }), [
      'senderName',
    ]);
    await expectInvalid(
      call(admin, 'POST', 'emails', {
        senderName: 'Ok',
        supportEmail: 'not an address',
        defaultEvents: [],
      }),
      ['supportEmail'],
    );
    expect(await storedSetting('emails')).toEqual(before);
  });
});

describe('announcements', () => {
  const texts = (tag: string, es = true) => ({
    ptBR: { title: `Aviso ${tag}`, body: `Corpo ${tag}` },
    en: { title: `Notice ${tag}`, body: `Body ${tag}` },
    es: es ? { title: `Aviso es ${tag}`, body: `Cuerpo ${tag}` } : { title: '', body: '' },
  });
  const save = async (payload: object) =>
    obj<AdminAnnouncement>(await call(admin, 'POST', '/api/v1/profile/announcement', payload));
  const shown = async (session: Session, headers: Record<string, string> = {}) =>
    obj<{ active: boolean; title: string; body: string }>(
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/profile/announcement',
        headers: { ...bearer(session), ...headers },
      }),
    );

  it('lists the seeded announcement with its English texts', async () => {
    const list = obj<AdminAnnouncement[]>(
      await call(admin, 'GET', '/api/v1/profile/list/announcement'),
    );
    const seeded = list.find((item) => item.texts.en.title === 'Scheduled maintenance');
    expect(seeded).toMatchObject({
      active: false,
      texts: { ptBR: { title: '' }, es: { title: '' } },
    });
  });

  it('keeps one active at a time and shows it in the reader’s language, with fallback', async () => {
    const first = await save({ active: true, texts: texts('one', false) });
    expect(first).toMatchObject({ active: true, texts: texts('one', false) });
    const es = await createUser(t.app, ['doctor'], { language: 'es' });
    expect(await shown(brl)).toEqual({
      id: first.id,
      active: true,
      title: 'Aviso one',
      body: 'Corpo one',
    });
    expect(await shown(doctor)).toMatchObject({ title: 'Notice one' });
    // No Spanish text: English instead.
    expect(await shown(es)).toEqual({
      id: first.id,
      active: true,
      title: 'Notice one',
      body: 'Body one',
    });

    const second = await save({ active: true, texts: texts('two') });
    expect(await shown(es)).toEqual({
      id: second.id,
      active: true,
      title: 'Aviso es two',
      body: 'Cuerpo two',
    });
    const list = obj<AdminAnnouncement[]>(
      await call(admin, 'GET', '/api/v1/profile/list/announcement'),
    );
    expect(list.filter((item) => item.active).map((item) => item.id)).toEqual([second.id]);
    expect(list[0]!.id).toBe(second.id);
    expect((await auditRows('announcement', first.id))[0]).toMatchObject({
      action: 'announcement.update',
      details: { before: { active: true }, after: { active: false } },
    });
    expect((await auditRows('announcement', second.id))[0]).toMatchObject({
      action: 'announcement.create',
    });

    // Re-activating the first deactivates the second; editing texts is audited.
    await save({ id: first.id, active: true, texts: texts('one again') });
    expect(await shown(doctor)).toMatchObject({ title: 'Notice one again' });
    const active = await db().select().from(announcements).where(eq(announcements.active, true));
    expect(active.map((row) => row.id)).toEqual([first.id]);
    expect(active[0]).toMatchObject({ title: 'Notice one again', body: 'Body one again' });
    expect((await auditRows('announcement', first.id))[0]).toMatchObject({
      action: 'announcement.update',
      details: { changed: ['active', 'texts'] },
    });

    await save({ id: first.id, active: false, texts: texts('one again') });
    expect(await shown(doctor)).toEqual({ active: false, title: '', body: '' });
  });

  it('refuses an announcement without any title, too long texts and unknown ids', async () => {
    const count = (await db().select().from(announcements)).length;
    await expectInvalid(
      call(admin, 'POST', '/api/v1/profile/announcement', {
        active: true,
        texts: {
          ptBR: { title: '', body: 'x' },
          en: { title: ' ', body: '' },
          es: { title: '', body: '' },
        },
      }),
      ['texts.en.title'],
    );
    await expectInvalid(
      call(admin, 'POST', '/api/v1/profile/announcement', {
        active: true,
        texts: { ...texts('x'), es: { title: 'x'.repeat(151), body: '' } },
      }),
      ['texts.es.title'],
    );
    await expectInvalid(call(admin, 'POST', '/api/v1/profile/announcement', { active: true }), [
      'texts',
    ]);
    const unknown = await call(admin, 'POST', '/api/v1/profile/announcement', {
      id: 999_999,
      active: true,
      texts: texts('ghost'),
    });
    expect(unknown.statusCode).toBe(404);
    expect((await db().select().from(announcements)).length).toBe(count);
  });
});
