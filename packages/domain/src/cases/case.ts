import { z } from 'zod';
import { CURRENCIES } from '../i18n/locale';
import { addressSchema } from '../common/address';
import { patientSchema } from '../common/person';
import { attachmentSchema } from '../attachments/attachment';
import { transactionSchema } from '../payments/transaction';
import { chatSchema } from '../chat/chat';
import { CASE_STATUSES } from './case-status';
import { caseServiceSchema } from './case-service';
import { caseReviewSchema } from './case-review';

/** Case user: a member of the case, optionally notified of its events. */
export const caseUserSchema = z.object({
  id: z.number().int(),
  caseId: z.number().int(),
  userId: z.number().int(),
  triggerNotification: z.boolean(),
});

/** Case with its collections. */
export const caseSchema = z.object({
  id: z.number().int(),
  owner_id: z.number().int(),
  caseStatus: z.enum(CASE_STATUSES),
  caseArchived: z.boolean(),
  /** At least one open review (see case-review.ts). */
  caseReview: z.boolean(),
  address: addressSchema.nullable(),
  patient: patientSchema.nullable(),
  observation: z.string().max(5000),
  caseCurrency: z.enum(CURRENCIES),
  createdAt: z.string(),
  modifiedAt: z.string(),
  deadlineAt: z.string().nullable(),
  finishAt: z.string().nullable(),
  users: z.array(caseUserSchema),
  services: z.array(caseServiceSchema),
  attachments: z.array(attachmentSchema),
  transactions: z.array(transactionSchema),
  chats: z.array(chatSchema),
  reviews: z.array(caseReviewSchema),
});
