import { totpStep } from '@dentflow/domain';
import { base32Decode, hotp } from '../../apps/server/src/security/totp';

/** Posts JSON to the server under test and answers the status and the body's text. */
export type PostJson = (
  path: string,
  payload: unknown,
) => Promise<{ status: number; body: string }>;

/** A signed-in demo account: its access token (renewed by `benchRefresh`) and its id. */
export interface BenchSession {
  token: string;
  refreshToken: string;
  id: number;
}

/**
 * Logs a demo account in on a fresh bench database. Supervisors and admins must have a second
 * factor: the first login enrols one, computing the code from the secret as a phone would.
 */
export async function benchLogin(post: PostJson, nickName: string): Promise<BenchSession> {
  const call = async <T>(path: string, payload: unknown): Promise<T> => {
    const answer = await post(path, payload);
    if (answer.status !== 200)
      throw new Error(`${path} ${nickName}: ${answer.status} ${answer.body}`);
    return (JSON.parse(answer.body) as { obj: T }).obj;
  };
  type Session = { accessToken: string; refreshToken: string; profile: { id: number } };
  type Challenge = { twoFactor: { challenge: string; step: 'code' | 'enrol' } };
  const answer = await call<Session | Challenge>('/api/v1/auth/login', {
    login: nickName,
    password: 'Dentflow123',
    remember: false,
  });
  let session: Session;
  if ('twoFactor' in answer) {
    const { challenge, step } = answer.twoFactor;
    if (step !== 'enrol')
      throw new Error(`${nickName} already has a second factor the bench lacks`);
    const { secret } = await call<{ secret: string }>('/api/v1/auth/twoFactor/setup', {
      challenge,
    });
    const code = hotp(base32Decode(secret), totpStep(Date.now()));
    session = await call<Session>('/api/v1/auth/twoFactor/enrol', {
      challenge,
      code,
      rememberDevice: false,
    });
  } else {
    session = answer;
  }
  return { token: session.accessToken, refreshToken: session.refreshToken, id: session.profile.id };
}

/**
 * A new access token for the session, which keeps the rotated refresh token: an access token
 * lasts 15 minutes, less than a long run, and a supervisor cannot sign in twice (the second
 * factor the bench enrolled is not kept).
 */
export async function benchRefresh(post: PostJson, session: BenchSession): Promise<void> {
  const answer = await post('/api/v1/auth/refresh_token', { refresh_token: session.refreshToken });
  if (answer.status !== 200) throw new Error(`refresh: ${answer.status} ${answer.body}`);
  const renewed = (
    JSON.parse(answer.body) as { obj: { accessToken: string; refreshToken: string } }
  ).obj;
  session.token = renewed.accessToken;
  session.refreshToken = renewed.refreshToken;
}
