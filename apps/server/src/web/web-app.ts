import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/error-handler';
import { requestLanguage } from '../http/language';

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dentflow</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:4rem auto;color:#222">
<h1>Dentflow API is running</h1>
<p>The web app has not been built yet. Run <code>npm run build</code> at the repository root, then restart the server.</p>
<p>API documentation: <a href="/api/docs">/api/docs</a></p>
</body></html>`;

/**
 * Serves the built SPA from `webDistDir`: files as they are, any other non-API GET gets
 * index.html (client-side routing); unknown `/api` paths get the 404 envelope.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const hasBuild = existsSync(join(webDistDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: true,
      // The build's `.vite/manifest.json` (read by the route budget check) lists source paths.
      dotfiles: 'ignore',
      // Hashed assets may be cached for long; index.html must always be revalidated.
      setHeaders: (res, path) => {
        if (path.includes(`${join(webDistDir, 'assets')}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.header('cache-control', 'no-cache');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(errorBody(requestLanguage(request), 'NOT_FOUND'));
    }
    if (!hasBuild)
      return reply.status(200).type('text/html; charset=utf-8').send(MISSING_BUILD_PAGE);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
