import { useMutation } from '@tanstack/react-query';
import { api, storeSession, type Session } from '../../../lib/api-client';
import { getDeviceTokens } from './trusted-devices';

export interface LoginInput {
  login: string;
  password: string;
  remember: boolean;
}

/** The step after a right password when the account needs a second factor. */
export interface TwoFactorChallenge {
  twoFactor: { challenge: string; step: 'code' | 'enrol' };
}

export type LoginAnswer = Session | TwoFactorChallenge;

export const isChallenge = (answer: LoginAnswer): answer is TwoFactorChallenge =>
  'twoFactor' in answer;

/** The password step: a session (kept), or the second-factor step the account needs. */
export async function login(input: LoginInput): Promise<LoginAnswer> {
  const devices = getDeviceTokens();
  const answer = await api.post<LoginAnswer>('/auth/login', {
    ...input,
    ...(devices.length > 0 ? { devices } : {}),
  });
  if (!isChallenge(answer)) storeSession(answer);
  return answer;
}

export const useLogin = () => useMutation({ mutationFn: login });
