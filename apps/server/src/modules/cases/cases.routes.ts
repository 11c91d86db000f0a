import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addServiceBodySchema,
  archiveQuerySchema,
  caseCountsSchema,
  caseDetailSchema,
  caseDispatchBodySchema,
  caseEventSchema,
  caseListParamsSchema,
  caseListQuerySchema,
  caseMoveBodySchema,
  casePageSchema,
  casePlannerBodySchema,
  caseReviewBodySchema,
  caseSetBodySchema,
  caseUserBodySchema,
  newCaseBodySchema,
  serviceDataBodySchema,
  idParamSchema,
  pageSchema,
} from '@dentflow/domain';
import type { Config } from '../../config';
import { responses } from '../../http/envelope';
import { caller } from '../../http/request-meta';
import { requestLanguage } from '../../http/language';
import type { CasesService } from './cases.service';

const tags = ['cases'];
const id = idParamSchema;
const caseParams = z.object({ id });
const serviceParams = z.object({ id, serviceId: id });
const userParams = z.object({ id, userId: id });
const reviewParams = z.object({ id, reviewId: id });
const pageParams = z.object({ page: pageSchema });

/** Every case route: `authenticated` (or `doctor` to open one) + per-record rules in the service. */
export function registerCasesRoutes(app: FastifyInstance, cases: CasesService, config: Config) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { permission: 'authenticated' as const };

  r.post('/api/v1/case/new', {
    config: { permission: 'doctor' },
    schema: {
      tags,
      summary: 'Open a case for a patient (clinic or doctor); status new',
      body: newCaseBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.create(caller(req), req.body, requestLanguage(req)),
    }),
  });

  r.get('/api/v1/case/list/:filter/:page', {
    config: auth,
    schema: {
      tags,
      summary: 'One page of a case list the caller can see (archived cases never appear)',
      params: caseListParamsSchema,
      querystring: caseListQuerySchema,
      response: responses(casePageSchema),
    },
    handler: async (req) => ({
      obj: await cases.list(
        caller(req),
        req.params.filter,
        req.params.page,
        req.query,
        requestLanguage(req),
      ),
    }),
  });

  r.get('/api/v1/case/counts', {
    config: auth,
    schema: {
      tags,
      summary: 'How many cases the caller can see per list filter',
      response: responses(caseCountsSchema),
    },
    handler: async (req) => ({ obj: await cases.counts(caller(req)) }),
  });

  r.get('/api/v1/case/archive/:page', {
    config: auth,
    schema: {
      tags,
      summary: 'Search the archived cases the caller can see',
      params: pageParams,
      querystring: archiveQuerySchema,
      response: responses(casePageSchema),
    },
    handler: async (req) => ({
      obj: await cases.archiveSearch(caller(req), req.params.page, req.query, requestLanguage(req)),
    }),
  });

  r.get('/api/v1/case/:id/get', {
    config: auth,
    schema: {
      tags,
      summary: 'The whole case with its checks and the caller’s actions (404 when hidden)',
      params: caseParams,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.get(caller(req), req.params.id, requestLanguage(req)),
    }),
  });

  r.get('/api/v1/case/:id/history', {
    config: auth,
    schema: {
      tags,
      summary: 'The case events, oldest first',
      params: caseParams,
      response: responses(z.array(caseEventSchema)),
    },
    handler: async (req) => ({ obj: await cases.history(caller(req), req.params.id) }),
  });

  r.post('/api/v1/case/:id/set', {
    config: auth,
    schema: {
      tags,
      summary: 'Change patient, observation or address (409 CASE_CHANGED when modifiedAt is stale)',
      params: caseParams,
      body: caseSetBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.set(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/:id/dispatch', {
    config: auth,
    schema: {
      tags,
      summary:
        'Record the dispatch of a finished case (printer or staff): carrier and tracking, or ready for pickup',
      params: caseParams,
      body: caseDispatchBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.dispatch(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/:id/services/add', {
    config: auth,
    schema: {
      tags,
      summary: 'Add a product as a service (a combo adds its inner products)',
      params: caseParams,
      body: addServiceBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.addService(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.delete('/api/v1/case/:id/services/:serviceId', {
    config: auth,
    schema: {
      tags,
      summary: 'Remove an unpaid service',
      params: serviceParams,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.removeService(
        caller(req),
        req.params.id,
        req.params.serviceId,
        requestLanguage(req),
      ),
    }),
  });

  r.post('/api/v1/case/:id/services/:serviceId/data', {
    config: auth,
    schema: {
      tags,
      summary: 'Save a service’s data (checked against its layout)',
      params: serviceParams,
      body: serviceDataBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.setServiceData(
        caller(req),
        req.params.id,
        req.params.serviceId,
        req.body,
        requestLanguage(req),
      ),
    }),
  });

  r.post('/api/v1/case/:id/move', {
    config: {
      ...auth,
      // Per user, generous: a lab validates batches from one office address, and concurrent
      // identical moves must answer 200 and 409s. Approve's password check has its own limits
      // (per account and per address, in the service).
      rateLimit: {
        max: config.rateLimit.caseMove,
        timeWindow: config.rateLimit.windowMs,
        keyGenerator: (req) => `user:${caller(req).userId}`,
      },
    },
    schema: {
      tags,
      summary: 'Move the case (409 INVALID_TRANSITION, 403 for a role or relation that may not)',
      params: caseParams,
      body: caseMoveBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.move(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/:id/users', {
    config: auth,
    schema: {
      tags,
      summary: 'Add a case user (supervisor; the owning clinic: a linked partner)',
      params: caseParams,
      body: caseUserBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.addUser(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.delete('/api/v1/case/:id/users/:userId', {
    config: auth,
    schema: {
      tags,
      summary: 'Remove a case user (supervisor; the owning clinic: a partner)',
      params: userParams,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.removeUser(
        caller(req),
        req.params.id,
        req.params.userId,
        requestLanguage(req),
      ),
    }),
  });

  r.post('/api/v1/case/:id/planner', {
    config: auth,
    schema: {
      tags,
      summary: 'Set the planner of services and add them as a case user (supervisor)',
      params: caseParams,
      body: casePlannerBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.setPlanner(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/:id/review', {
    config: auth,
    schema: {
      tags,
      summary: 'Open a review (supervisor, planner)',
      params: caseParams,
      body: caseReviewBodySchema,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.openReview(caller(req), req.params.id, req.body, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/:id/review/:reviewId/solve', {
    config: auth,
    schema: {
      tags,
      summary: '“Problem solved” (supervisor or the owner)',
      params: reviewParams,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.solveReview(
        caller(req),
        req.params.id,
        req.params.reviewId,
        requestLanguage(req),
      ),
    }),
  });

  r.post('/api/v1/case/:id/archive', {
    config: auth,
    schema: {
      tags,
      summary: 'Archive a finished, closed or cancelled case (owner or supervisor)',
      params: caseParams,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.archive(caller(req), req.params.id, requestLanguage(req)),
    }),
  });

  r.post('/api/v1/case/:id/unarchive', {
    config: auth,
    schema: {
      tags,
      summary: 'Un-archive a case (owner or supervisor)',
      params: caseParams,
      response: responses(caseDetailSchema),
    },
    handler: async (req) => ({
      obj: await cases.unarchive(caller(req), req.params.id, requestLanguage(req)),
    }),
  });
}
