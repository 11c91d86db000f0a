import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViaCepZipLookup } from '../src/adapters/zip-lookup/viacep';
import { bearer, json, login, startTestApp, type Session, type TestApp } from './support/test-app';
import { speakEnglish } from './support/cases-fixtures';

/** A local stand-in for ViaCEP speaking its protocol: GET /{8 digits}/json/. */
let fake: Server;
let fakeUrl: string;
const requests: string[] = [];
function startFakeViaCep(): Promise<void> {
  fake = createServer((req, res) => {
    requests.push(req.url ?? '');
    const match = /^\/ws\/(\d{8})\/json\/$/.exec(req.url ?? '');
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (!match) {
      res.statusCode = 400;
      return res.end('{"erro": true}');
    }
    const cep = match[1];
    if (cep === '01310100') {
      return res.end(
        JSON.stringify({
          cep: '01310-100',
          logradouro: 'Avenida Paulista',
          complemento: 'de 612 a 1510 - lado par',
          bairro: 'Bela Vista',
          localidade: 'São Paulo',
          uf: 'SP',
          ibge: '3550308',
        }),
      );
    }
    if (cep === '50000000') {
      res.statusCode = 500;
      return res.end('oops');
    }
    if (cep === '60000000') return res.end('<html>not json</html>');
    if (cep === '70000000') return; // never answers: the adapter's time-out must fire
    return res.end('{"erro": "true"}');
  });
  return new Promise((resolve) =>
    fake.listen(0, '127.0.0.1', () => {
      fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/ws`;
      resolve();
    }),
  );
}

let t: TestApp;
let unconfigured: TestApp;
let doctor: Session;
beforeAll(async () => {
  await startFakeViaCep();
  t = await startTestApp({ ZIP_LOOKUP_URL: fakeUrl, ZIP_LOOKUP_TIMEOUT_MS: '300' });
  await speakEnglish(t.app, 'doctor');
  doctor = await login(t.app, 'doctor');
});
afterAll(async () => {
  await t?.close();
  await unconfigured?.close();
  fake.closeAllConnections();
  await new Promise((resolve) => fake.close(resolve));
});

const query = (app: TestApp, zip: string, session: Session, language = 'en-US') =>
  app.app.inject({
    method: 'GET',
    url: `/api/v1/shop/queryAddress/${encodeURIComponent(zip)}`,
    headers: { ...bearer(session), 'accept-language': language },
  });

describe('shop/queryAddress through the ViaCEP adapter', () => {
  it('fills the address of a known zip code, with or without the dash', async () => {
    for (const zip of ['01310-100', '01310100']) {
      const response = await query(t, zip, doctor);
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({
        obj: {
          zipCode: '01310-100',
          country: 'Brasil',
          state: 'SP',
          city: 'São Paulo',
          address: 'Avenida Paulista, Bela Vista',
          complement: 'de 612 a 1510 - lado par',
        },
      });
    }
    expect(requests).toContain('/ws/01310100/json/');
  });

  it('answers 404 ZIP_NOT_FOUND for an unknown zip code', async () => {
    // The demo doctor's profile language (en) wins over Accept-Language.
    const response = await query(t, '99999-999', doctor, 'pt-BR');
    expect(response.statusCode).toBe(404);
    expect(json(response)).toEqual({ code: 'ZIP_NOT_FOUND', error: 'Zip code not found' });
  });

  it('answers 400 on the field for a malformed zip code without calling the provider', async () => {
    const before = requests.length;
    for (const zip of [
      '123',
      'abcdefgh',
      '1234-5678',
      '!!',
      'SW1A 1AA',
      '013101000',
      'x'.repeat(40),
    ]) {
      const response = await query(t, zip, doctor);
      expect(response.statusCode, zip).toBe(400);
      expect(json(response)).toEqual({
        code: 'VALIDATION_ERROR',
        error: 'Validation error, check required fields',
        fields: { zipcode: 'Enter the 8 digits of a Brazilian zip code (00000-000)' },
      });
    }
    expect(requests.length).toBe(before);
  });

  it('answers 503 ZIP_LOOKUP_UNAVAILABLE when the provider fails, answers garbage or hangs', async () => {
    for (const zip of ['50000-000', '60000-000', '70000-000']) {
      const response = await query(t, zip, doctor);
      expect(response.statusCode, zip).toBe(503);
      expect(json(response)).toEqual({
        code: 'ZIP_LOOKUP_UNAVAILABLE',
        error: 'The address lookup is unavailable right now. Please fill in the address by hand.',
      });
    }
  });

  it('answers 503 when the provider is down', async () => {
    const down = createViaCepZipLookup('http://127.0.0.1:1/ws', 500);
    expect((await down.lookup('01310-100')).status).toBe('unavailable');
  });

  it('answers 503 ZIP_LOOKUP_UNAVAILABLE when no provider is configured', async () => {
    unconfigured = await startTestApp();
    await speakEnglish(unconfigured.app, 'doctor');
    const session = await login(unconfigured.app, 'doctor');
    const response = await query(unconfigured, '01310-100', session);
    expect(response.statusCode).toBe(503);
    expect(json(response)).toMatchObject({ code: 'ZIP_LOOKUP_UNAVAILABLE' });
    // A malformed zip code is the caller's mistake, not an unavailable lookup: 400, translated.
    const malformed = await query(unconfigured, '123', session, 'pt-BR');
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed)).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { zipcode: 'Enter the 8 digits of a Brazilian zip code (00000-000)' },
    });
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/shop/queryAddress/01310100',
    });
    expect(response.statusCode).toBe(401);
  });
});
