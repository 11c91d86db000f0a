import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema, newPinBodySchema, pinListSchema, pinSchema } from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import type { PinsService } from './pins.service';

const tags = ['pins'];
const params = z.object({ id: idParamSchema });
const auth = { permission: 'authenticated' as const };

/**
 * Pins on planning models (docs/permissions.md "Pins"): every route is for any signed-in user;
 * whether they see the file and may pin or resolve is decided per record.
 */
export function registerPinsRoutes(app: FastifyInstance, pins: PinsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/attachment/:id/pins', {
    config: auth,
    schema: {
      tags,
      summary: "A planning file's pins, oldest first",
      params,
      response: responses(pinListSchema),
    },
    handler: async (req) => ({ obj: await pins.list(caller(req), req.params.id) }),
  });

  r.post('/api/v1/attachment/:id/pins', {
    config: auth,
    schema: {
      tags,
      summary: 'Drop a pin with a note on an STL planning file; the note goes to the case chat',
      params,
      body: newPinBodySchema,
      response: responses(pinSchema),
    },
    handler: async (req) => ({ obj: await pins.create(caller(req), req.params.id, req.body) }),
  });

  r.post('/api/v1/pin/:id/resolve', {
    config: auth,
    schema: { tags, summary: 'Mark a pin resolved', params, response: responses(pinSchema) },
    handler: async (req) => ({ obj: await pins.resolve(caller(req), req.params.id) }),
  });

  r.post('/api/v1/pin/:id/reopen', {
    config: auth,
    schema: { tags, summary: 'Open a resolved pin again', params, response: responses(pinSchema) },
    handler: async (req) => ({ obj: await pins.reopen(caller(req), req.params.id) }),
  });
}
