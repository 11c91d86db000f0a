import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { headersOf } from './security-headers';

/** The headers helmet itself writes on a real response. */
async function helmetOnARealResponse(middleware: ReturnType<typeof helmet>) {
  const server = createServer((req, res) => {
    middleware(req, res, () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      httpRequest(`http://127.0.0.1:${port}/`, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

describe('security headers read once', () => {
  it('are exactly the headers helmet sets on a response', async () => {
    const middleware = helmet({
      contentSecurityPolicy: {
        directives: { defaultSrc: ["'self'"], upgradeInsecureRequests: null },
      },
    });
    const real = await helmetOnARealResponse(middleware);
    const once = headersOf(middleware);
    const ours = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];
    const expected = Object.fromEntries(
      Object.entries(real).filter(([name]) => !ours.includes(name)),
    );
    expect(once).toEqual(expected);
    expect(once['content-security-policy']).toContain("default-src 'self'");
    expect(once['x-content-type-options']).toBe('nosniff');
    expect(once['strict-transport-security']).toBeDefined();
  });
});
