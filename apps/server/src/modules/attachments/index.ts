// What the attachments module offers other modules; they import nothing else from it.
export {
  findAttachmentById,
  findAttachmentForUpdate,
  removeAttachmentRow,
} from './attachments.repository';
export { avatarKeyOf } from './avatar.service';
