// What the auth module offers other modules; they import nothing else from it.
export { endAllAccountAccess, endOtherSessions, endSessionsAndResetLinks } from './account-access';
