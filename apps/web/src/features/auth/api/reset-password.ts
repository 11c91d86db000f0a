import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ResetPasswordInput {
  token: string;
  password: string;
  confirmPassword: string;
}

export const resetPassword = (input: ResetPasswordInput) =>
  api.post<{ reset: boolean }>('/auth/resetPassword', input);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
