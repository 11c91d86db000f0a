// What the mail module offers other modules; they import nothing else from it.
export { enqueueMail, outboxBacklog } from './mail-outbox';
