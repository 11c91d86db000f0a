import { z } from 'zod';
import { SERVICE_DATA_VERSION } from '../constants';

/** Case service. */
export const caseServiceSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  productId: z.number().int(),
  serviceId: z.number().int().nullable(),
  productCategoryId: z.number().int(),
  quantity: z.number().int().min(1),
  printableProduct: z.boolean(),
  plannerId: z.number().int().nullable(),
  approveRequestAt: z.string().nullable(),
  approveAt: z.string().nullable(),
  dataVersion: z.number().int().min(0).max(SERVICE_DATA_VERSION),
  data: z.unknown(),
});
export type CaseService = z.infer<typeof caseServiceSchema>;

type ApprovalFields = Pick<CaseService, 'approveRequestAt' | 'approveAt'>;
/** Pending approval: requested but not approved. */
export const isPendingApproval = (s: ApprovalFields) => !!s.approveRequestAt && !s.approveAt;
/** Approved: both requested and approved. */
export const isApproved = (s: ApprovalFields) => !!s.approveRequestAt && !!s.approveAt;

/** The case has a print step when one of its services is a printable product. */
export const hasPrintableService = (services: readonly Pick<CaseService, 'printableProduct'>[]) =>
  services.some((service) => service.printableProduct);
