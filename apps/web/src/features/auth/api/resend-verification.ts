import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const resendVerification = (login: string) =>
  api.post<{ sent: boolean }>('/auth/resendVerification', { login });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
