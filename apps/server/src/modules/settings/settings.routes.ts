import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emailsSettingsSchema,
  emailsSettingsViewSchema,
  paymentsSettingsSchema,
  paymentsSettingsViewSchema,
  serviceMetadataSettingsSchema,
  serviceMetadataSettingsViewSchema,
  shippingSettingsFormSchema,
  shippingSettingsSchema,
  sleevesSettingsSchema,
  sleevesSettingsViewSchema,
  treatmentPurposesSettingsSchema,
  treatmentPurposesSettingsViewSchema,
} from '@dentflow/domain';
import { responses } from '../../http/envelope';
import { callerId, requestMeta } from '../../http/request-meta';
import type { SettingsService } from './settings.service';

const tags = ['settings'];
const admin = { permission: 'admin' as const };

/**
 * The settings sections, admin only: `GET` answers a section,
 * `POST` validates it with the domain schema (400 with fields), saves it with an audit row and
 * answers it as `GET` would now.
 */
export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/settings';

  r.get(`${base}/payments`, {
    config: admin,
    schema: {
      tags,
      summary: 'Pix receiver, payment method switches, whether providers are configured',
      response: responses(paymentsSettingsViewSchema),
    },
    handler: async () => ({ obj: await settings.getPayments() }),
  });
  r.post(`${base}/payments`, {
    config: admin,
    schema: {
      tags,
      summary: 'Save the Pix receiver (empty fields: the server configuration) and method switches',
      body: paymentsSettingsSchema,
      response: responses(paymentsSettingsViewSchema),
    },
    handler: async (req) => ({
      obj: await settings.setPayments(req.body, callerId(req), requestMeta(req)),
    }),
  });

  r.get(`${base}/emails`, {
    config: admin,
    schema: {
      tags,
      summary: 'Mail sender name and the notification types mailed by default',
      response: responses(emailsSettingsViewSchema),
    },
    handler: async () => ({ obj: await settings.getEmails() }),
  });
  r.post(`${base}/emails`, {
    config: admin,
    schema: {
      tags,
      summary: 'Save the mail sender name and the default mailed notification types',
      body: emailsSettingsSchema,
      response: responses(emailsSettingsViewSchema),
    },
    handler: async (req) => ({
      obj: await settings.setEmails(req.body, callerId(req), requestMeta(req)),
    }),
  });

  r.get(`${base}/serviceMetadata`, {
    config: admin,
    schema: {
      tags,
      summary: 'Every surgical kit manufacturer with its systems',
      response: responses(serviceMetadataSettingsViewSchema),
    },
    handler: async () => ({ obj: await settings.getServiceMetadata() }),
  });
  r.post(`${base}/serviceMetadata`, {
    config: admin,
    schema: {
      tags,
      summary: 'Replace the surgical kit manufacturers (left out → deleted)',
      body: serviceMetadataSettingsSchema,
      response: responses(serviceMetadataSettingsViewSchema),
    },
    handler: async (req) => ({
      obj: await settings.setServiceMetadata(req.body, callerId(req), requestMeta(req)),
    }),
  });

  r.get(`${base}/treatmentPurposes`, {
    config: admin,
    schema: {
      tags,
      summary: 'The names shown instead of the built-in treatment purpose labels, per language',
      response: responses(treatmentPurposesSettingsViewSchema),
    },
    handler: async () => ({ obj: await settings.getTreatmentPurposes() }),
  });
  r.post(`${base}/treatmentPurposes`, {
    config: admin,
    schema: {
      tags,
      summary: 'Save the treatment purposes’ names (empty: the built-in label)',
      body: treatmentPurposesSettingsSchema,
      response: responses(treatmentPurposesSettingsViewSchema),
    },
    handler: async (req) => ({
      obj: await settings.setTreatmentPurposes(req.body, callerId(req), requestMeta(req)),
    }),
  });

  r.get(`${base}/sleeves`, {
    config: admin,
    schema: {
      tags,
      summary: 'The live sleeve manufacturers with their prices per currency',
      response: responses(sleevesSettingsViewSchema),
    },
    handler: async () => ({ obj: await settings.getSleeves() }),
  });
  r.post(`${base}/sleeves`, {
    config: admin,
    schema: {
      tags,
      summary: 'Create, edit or soft delete sleeve manufacturers (left out → unchanged)',
      body: sleevesSettingsSchema,
      response: responses(sleevesSettingsViewSchema),
    },
    handler: async (req) => ({
      obj: await settings.setSleeves(req.body, callerId(req), requestMeta(req)),
    }),
  });

  r.get(`${base}/shipping`, {
    config: admin,
    schema: {
      tags,
      summary: 'The shop’s shipping table (fee and days per option, motoboy zip ranges)',
      response: responses(shippingSettingsSchema),
    },
    handler: async () => ({ obj: await settings.getShipping() }),
  });
  r.post(`${base}/shipping`, {
    config: admin,
    schema: {
      tags,
      summary: 'Save the shipping table; the next quote and checkout use it',
      body: shippingSettingsFormSchema,
      response: responses(shippingSettingsSchema),
    },
    handler: async (req) => ({
      obj: await settings.setShipping(req.body, callerId(req), requestMeta(req)),
    }),
  });
}
