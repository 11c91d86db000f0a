import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responses } from '../../http/envelope';
import type { UsersService } from './users.service';

export function registerUsersRoutes(app: FastifyInstance, usersService: UsersService) {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/users/planners', {
    config: { permission: 'supervisor' },
    schema: {
      tags: ['users'],
      security: [{ bearer: [] }],
      summary: 'Planners a supervisor may assign to a case',
      response: responses(z.array(z.object({ id: z.number().int(), displayName: z.string() }))),
    },
    handler: async () => ({ obj: await usersService.planners() }),
  });
}
