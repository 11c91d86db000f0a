// What the auth module offers other modules; they import nothing else from it.
export { expireAccountTokens, revokeAllSessions } from './auth.repository';
export { createAuthService } from './auth.service';
