import { useMutation } from '@tanstack/react-query';
import { api, storeSession, type Session } from '../../../lib/api-client';
import { addDeviceToken } from './trusted-devices';

export interface AuthenticatorSecret {
  secret: string;
  otpauthUri: string;
}

interface SecondFactorSession extends Session {
  deviceToken?: string;
  recoveryCodes?: string[];
}

export interface SecondFactorInput {
  challenge: string;
  code: string;
  rememberDevice: boolean;
}

/** Keeps the session, and the device token when the user asked to remember this device. */
function keep(answer: SecondFactorSession): SecondFactorSession {
  if (answer.deviceToken) addDeviceToken(answer.deviceToken);
  storeSession(answer);
  return answer;
}

export const verifyLoginCode = async (input: SecondFactorInput) =>
  keep(await api.post<SecondFactorSession>('/auth/twoFactor/verify', input));

export const loginEnrolmentSecret = (challenge: string) =>
  api.post<AuthenticatorSecret>('/auth/twoFactor/setup', { challenge });

/**
 * Confirms the enrolment a login asked for. The session is kept only once the user has seen
 * the recovery codes (`keepEnrolledSession`): keeping it would leave the login page at once.
 */
export const confirmLoginEnrolment = (input: SecondFactorInput) =>
  api.post<SecondFactorSession>('/auth/twoFactor/enrol', input);

export const keepEnrolledSession = (answer: SecondFactorSession) => keep(answer);

export const useVerifyLoginCode = () => useMutation({ mutationFn: verifyLoginCode });
export const useConfirmLoginEnrolment = () => useMutation({ mutationFn: confirmLoginEnrolment });
