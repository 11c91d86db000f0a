// What the chat module offers other modules; they import nothing else from it.
export { announceChatMessage, writeChatMessage } from './chat-posting';
