import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serviceDataMetadataSchema } from '@dentflow/domain';
import { responses } from '../../http/envelope';
import type { MetadataService } from './metadata.service';

export function registerMetadataRoutes(app: FastifyInstance, metadata: MetadataService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/metadata/list/serviceData/subsystem', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['metadata'],
      summary: 'Surgical kit manufacturers with their systems, and the treatment purposes’ names',
      response: responses(serviceDataMetadataSchema),
    },
    handler: async () => ({ obj: await metadata.serviceData() }),
  });
}
