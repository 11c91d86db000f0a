import { useQuery } from '@tanstack/react-query';
import {
  paymentReturnSchema,
  publicPaymentReturnSchema,
  type PaymentReturn,
  type PublicPaymentReturn,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { transactionKeys } from './transaction-keys';

export type PaymentProvider = 'paypal' | 'pagseguro';

export interface PaymentReturnParams {
  provider: PaymentProvider;
  transactionId: number;
  /** PayPal's order token and payer (absent for PagBank). */
  token: string | null;
  payerId: string | null;
}

export async function fetchPaymentReturn(params: PaymentReturnParams): Promise<PaymentReturn> {
  const query = new URLSearchParams();
  if (params.token) query.set('token', params.token);
  if (params.payerId) query.set('PayerID', params.payerId);
  const search = query.toString();
  const path = `/notification/${params.provider}/transaction/${params.transactionId}`;
  return paymentReturnSchema.parse(await api.get<unknown>(search ? `${path}?${search}` : path));
}

/**
 * The provider's return: the server captures or re-reads the payment. A query (not an effect)
 * so a double mount (React StrictMode) or a re-render shares one request; it is never re-sent
 * on its own, since a capture is not something to repeat behind the user's back.
 */
export const usePaymentReturn = (params: PaymentReturnParams | null) =>
  useQuery({
    queryKey: transactionKeys.providerReturn(
      params?.provider ?? '',
      params?.transactionId ?? 0,
      params?.token ?? '',
    ),
    // Enabled only with params; the guard keeps the types honest.
    queryFn: () =>
      params ? fetchPaymentReturn(params) : Promise.reject(new Error('no transaction')),
    enabled: params !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
  });

export interface PublicPaymentReturnParams {
  provider: PaymentProvider;
  /** The transaction's reference the return link carries, or null (older links). */
  reference: string | null;
  /** PayPal's order token, or null. */
  token: string | null;
}

export async function fetchPublicPaymentReturn(
  params: PublicPaymentReturnParams,
): Promise<PublicPaymentReturn> {
  const query = new URLSearchParams();
  if (params.reference) query.set('reference', params.reference);
  if (params.token) query.set('token', params.token);
  return publicPaymentReturnSchema.parse(
    await api.get<unknown>(`/notification/${params.provider}/status?${query.toString()}`),
  );
}

/**
 * The return page without a session: only the payment's status (the server re-reads a payment
 * still being processed, once per visit, like the signed-in return).
 */
export const usePublicPaymentReturn = (params: PublicPaymentReturnParams | null) =>
  useQuery({
    queryKey: [
      ...transactionKeys.providerReturn(params?.provider ?? '', 0, params?.token ?? ''),
      'public',
      params?.reference ?? '',
    ],
    queryFn: () =>
      params ? fetchPublicPaymentReturn(params) : Promise.reject(new Error('no reference')),
    enabled: params !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
  });
