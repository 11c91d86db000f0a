import { useQuery } from '@tanstack/react-query';
import { deferredCasePaymentSchema, type DeferredCasePayment } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { transactionKeys } from './transaction-keys';

const deferredListSchema = deferredCasePaymentSchema.array();

export const fetchDeferredPayments = async (): Promise<DeferredCasePayment[]> =>
  deferredListSchema.parse(await api.get<unknown>('/transactions/deferred'));

/**
 * Cases a supervisor validated with unpaid services (bill later) whose services no paid or
 * pre-paid transaction pays yet (supervisors and admins).
 */
export const useDeferredPayments = () =>
  useQuery({
    queryKey: transactionKeys.deferred(),
    queryFn: fetchDeferredPayments,
    // A validation without payment happens on a case page (maybe another supervisor's): the
    // list is read again each time the queue opens.
    staleTime: 0,
  });
