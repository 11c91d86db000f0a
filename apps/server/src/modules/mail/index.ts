// What the mail module offers other modules; they import nothing else from it.
export { enqueueMail, enqueueMailsWith, outboxBacklog, type MailsCte } from './mail-outbox';
