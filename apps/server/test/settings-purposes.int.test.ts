import { and, desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDataMetadata, TreatmentPurposesSettings } from '@dentflow/domain';
import { auditLog, settings } from '../src/db/schema';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Session;
let supervisor: Session;
let doctor: Session;
const db = () => t.app.database.db;

beforeAll(async () => {
  t = await startTestApp();
  [admin, supervisor, doctor] = await Promise.all([
    login(t.app, 'admin'),
    login(t.app, 'supervisor'),
    login(t.app, 'doctor'),
  ]);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const SETTINGS_URL = '/api/v1/settings/treatmentPurposes';
const METADATA_URL = '/api/v1/metadata/list/serviceData/subsystem';

const call = (session: Session | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: session ? bearer(session) : {},
    ...(payload ? { payload } : {}),
  });

const obj = <T>(response: LightMyRequestResponse): T => {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return json<{ obj: T }>(response).obj;
};

const storedDocument = async () =>
  (await db().select().from(settings).where(eq(settings.key, 'treatmentPurposes')))[0]?.value;

const auditRows = () =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'settings'), eq(auditLog.entityId, 'treatmentPurposes')))
    .orderBy(desc(auditLog.id));

const texts = (purpose: number, given: Partial<Record<'ptBR' | 'en' | 'es', string>> = {}) => ({
  purpose,
  ptBR: '',
  en: '',
  es: '',
  ...given,
});
const noTexts = [1, 2, 3, 4, 5, 6, 7].map((purpose) => texts(purpose));

describe('treatment purposes’ names', () => {
  it('refuses supervisors and doctors with 403 and anonymous callers with 401, saving nothing', async () => {
    const body = { treatmentPurposes: [texts(1, { en: 'Intruder' })] };
    for (const session of [supervisor, doctor]) {
      expect((await call(session, 'GET', SETTINGS_URL)).statusCode).toBe(403);
      const refused = await call(session, 'POST', SETTINGS_URL, body);
      expect(refused.statusCode).toBe(403);
      expect(json<{ code: string }>(refused).code).toBe('FORBIDDEN');
    }
    expect((await call(null, 'POST', SETTINGS_URL, body)).statusCode).toBe(401);
    expect(await storedDocument()).toBeUndefined();
    expect(await auditRows()).toEqual([]);
  });

  it('answers every purpose without names until saved; the doctor’s metadata carries them', async () => {
    expect(obj<TreatmentPurposesSettings>(await call(admin, 'GET', SETTINGS_URL))).toEqual({
      treatmentPurposes: noTexts,
    });
    expect(obj<ServiceDataMetadata>(await call(doctor, 'GET', METADATA_URL))).toMatchObject({
      treatmentPurposes: noTexts,
    });

    const saved = obj<TreatmentPurposesSettings>(
      await call(admin, 'POST', SETTINGS_URL, {
        treatmentPurposes: [
          texts(5, { ptBR: ' Protocolo All-on-4 ', en: 'All-on-4', es: '' }),
          texts(2, { en: 'Veneers' }),
        ],
      }),
    );
    const expected = noTexts.map((row) =>
      row.purpose === 5
        ? texts(5, { ptBR: 'Protocolo All-on-4', en: 'All-on-4' })
        : row.purpose === 2
          ? texts(2, { en: 'Veneers' })
          : row,
    );
    expect(saved).toEqual({ treatmentPurposes: expected });
    expect(obj<TreatmentPurposesSettings>(await call(admin, 'GET', SETTINGS_URL))).toEqual(saved);

    // Read again by the next request: the service data form of any signed-in user shows them.
    const metadata = obj<ServiceDataMetadata>(await call(doctor, 'GET', METADATA_URL));
    expect(metadata.treatmentPurposes).toEqual(expected);
    expect(metadata.kitManufacturers.find((kit) => kit.manufactureName === 'Neodent')).toEqual({
      manufactureName: 'Neodent',
      systems: expect.arrayContaining(['Grand Morse']),
    });
    expect((await call(null, 'GET', METADATA_URL)).statusCode).toBe(401);

    const [audit] = await auditRows();
    expect(audit).toMatchObject({
      actorUserId: admin.profile.id,
      action: 'settings.treatmentPurposes.set',
      details: {
        changed: ['treatmentPurposes'],
        before: { treatmentPurposes: noTexts },
        after: { treatmentPurposes: expected },
      },
    });

    // Emptying a name brings the built-in label back.
    const cleared = obj<TreatmentPurposesSettings>(
      await call(admin, 'POST', SETTINGS_URL, { treatmentPurposes: [texts(2, { en: 'Veneers' })] }),
    );
    expect(cleared.treatmentPurposes[4]).toEqual(texts(5));
    expect(
      obj<ServiceDataMetadata>(await call(doctor, 'GET', METADATA_URL)).treatmentPurposes[4],
    ).toEqual(texts(5));
    expect(await auditRows()).toHaveLength(2);
  });

  it('refuses bad names with 400 and the translated fields, saving nothing', async () => {
    const before = await storedDocument();
    const audits = (await auditRows()).length;
    const response = await t.app.inject({
      method: 'POST',
      url: SETTINGS_URL,
      headers: { ...bearer(admin), 'accept-language': 'pt-BR' },
      payload: {
        treatmentPurposes: [
          texts(1, { en: 'x'.repeat(61) }),
          texts(3, { es: 'Corona\tsobre diente' }),
          texts(8, { en: 'Unknown' }),
          texts(1),
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(400);
    const error = json<{ code: string; fields: Record<string, string> }>(response);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(error.fields).sort()).toEqual([
      'treatmentPurposes.0.en',
      'treatmentPurposes.1.es',
      'treatmentPurposes.2.purpose',
      'treatmentPurposes.3.purpose',
    ]);
    // Translated, not message keys.
    for (const message of Object.values(error.fields)) expect(message).not.toMatch(/^validation\./);
    expect(await storedDocument()).toEqual(before);
    expect(await auditRows()).toHaveLength(audits);
  });
});
