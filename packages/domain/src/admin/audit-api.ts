/**
 * The audit log search contract: `GET /api/v1/audit`, admins only;
 * shared by the server's route and the web's audit screen.
 */
import { z } from 'zod';
import { idParamSchema, pageSchema } from '../common/bounds';

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const dayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const optionalText = (max: number) =>
  z.preprocess(emptyToUndefined, z.string().trim().max(max).optional());

/**
 * The query string. `from`: a day (UTC) or an instant, rows from then on; `to`: a day (UTC, the
 * whole day included) or an instant, rows before then.
 */
export const auditQuerySchema = z.object({
  actor: z.preprocess(emptyToUndefined, idParamSchema.optional()),
  entity: optionalText(100),
  entityId: optionalText(100),
  from: z.preprocess(emptyToUndefined, dayOrInstant.optional()),
  to: z.preprocess(emptyToUndefined, dayOrInstant.optional()),
  page: pageSchema.default(0),
});
export type AuditQueryInput = z.infer<typeof auditQuerySchema>;

export const auditItemSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorUserId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** `before` and `after` where the row records a change, and what caused it. */
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditItem = z.infer<typeof auditItemSchema>;

export const auditPageSchema = z.object({
  items: z.array(auditItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
