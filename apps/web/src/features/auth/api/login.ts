import { useMutation } from '@tanstack/react-query';
import { api, storeSession, type Session } from '../../../lib/api-client';

export interface LoginInput {
  login: string;
  password: string;
  remember: boolean;
}

export async function login(input: LoginInput): Promise<Session> {
  const session = await api.post<Session>('/auth/login', input);
  storeSession(session);
  return session;
}

export const useLogin = () => useMutation({ mutationFn: login });
