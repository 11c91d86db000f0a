import { z } from 'zod';
import { MESSAGE } from '../forms/rules';
import { TEXT_DIALOG_DEFAULT_LIMIT } from '../constants';
import { isPendingApproval, type CaseService } from './case-service';

/**
 * Approve dialog: password required when approving; text non-empty, within the limit
 * (default 100, adjustable). The same dialog without `approving` is the plain text dialog used to
 * request a modification.
 */
export function approveDialogSchema(options: { approving: boolean; limit?: number }) {
  const limit = options.limit ?? TEXT_DIALOG_DEFAULT_LIMIT;
  return z.object({
    password: options.approving
      ? z.string({ error: MESSAGE.required }).min(1, MESSAGE.required).max(200, MESSAGE.max)
      : z.string().max(200, MESSAGE.max).optional(),
    text: z
      .string({ error: MESSAGE.required })
      .trim()
      .min(1, MESSAGE.required)
      .max(limit, MESSAGE.max),
  });
}

export function isApproveDialogValid(
  values: { password?: string; text: string },
  options: { approving: boolean; limit?: number },
): boolean {
  return approveDialogSchema(options).safeParse(values).success;
}

/** Characters left for the text-area counter. */
export const charactersLeft = (text: string, limit: number = TEXT_DIALOG_DEFAULT_LIMIT) =>
  limit - text.length;

/** Services offered in the choose-services dialog: those pending approval. */
export const servicesToApprove = <T extends Pick<CaseService, 'approveRequestAt' | 'approveAt'>>(
  services: readonly T[],
) => services.filter(isPendingApproval);

/**
 * Every service pending approval is preselected: the planning the client was asked to approve is
 * what they usually approve; they untick what they do not approve yet.
 */
export function initialServiceSelection(services: readonly Pick<CaseService, 'id'>[]): number[] {
  return services.map((service) => service.id);
}

/** At least one service must be selected, and only among the candidates. */
export function canConfirmServiceSelection(
  selectedIds: readonly number[],
  candidates: readonly Pick<CaseService, 'id'>[],
): boolean {
  const candidateIds = new Set(candidates.map((service) => service.id));
  return selectedIds.length > 0 && selectedIds.every((id) => candidateIds.has(id));
}
