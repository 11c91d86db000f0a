import { useMutation, useQuery } from '@tanstack/react-query';
import { paymentLinkSchema, type PaymentLink } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { transactionKeys } from './transaction-keys';

/** `GET .../paymentLink`: creates the provider's order or checkout on first use. */
export const fetchPaymentLink = async (transactionId: number): Promise<PaymentLink> =>
  paymentLinkSchema.parse(await api.get<unknown>(`/case/transaction/${transactionId}/paymentLink`));

/** The Pix code when the transaction answer does not carry it yet (read once, then kept). */
export const usePixCode = (transactionId: number, enabled: boolean) =>
  useQuery({
    queryKey: transactionKeys.paymentLink(transactionId),
    queryFn: () => fetchPaymentLink(transactionId),
    enabled,
    staleTime: Infinity,
  });

/** A web payment: asks for the provider's page (on click), then the caller sends the browser. */
export const usePaymentLink = (transactionId: number) =>
  useMutation({ mutationFn: () => fetchPaymentLink(transactionId) });
