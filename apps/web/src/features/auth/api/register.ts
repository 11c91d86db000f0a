import { useMutation } from '@tanstack/react-query';
import type { Language } from '@dentflow/domain';
import { api } from '../../../lib/api-client';

export interface RegisterInput {
  email: string;
  password: string;
  fname: string;
  lname: string;
  nickName: string;
  terms: boolean;
  coupom?: string;
  language: Language;
}

export const register = (input: RegisterInput) => api.post<{ id: number }>('/auth/register', input);

export const useRegister = () => useMutation({ mutationFn: register });
