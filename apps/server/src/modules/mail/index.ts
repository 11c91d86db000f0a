// What the mail module offers other modules; they import nothing else from it.
export { enqueueMail, enqueueMails, outboxBacklog } from './mail-outbox';
