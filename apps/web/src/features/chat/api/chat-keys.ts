/**
 * Query keys of the chat. Everything of a case's chat lives under `['case', caseId, 'chat']`: the
 * live updates invalidate that prefix when a message arrives or is deleted.
 */
export const chatKeys = {
  all: (caseId: number) => ['case', caseId, 'chat'] as const,
  channels: (caseId: number) => ['case', caseId, 'chat', 'channels'] as const,
  messages: (caseId: number, channel: number) => ['case', caseId, 'chat', channel] as const,
};
