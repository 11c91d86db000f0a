// What the attachments module offers other modules; they import nothing else from it.
export { avatarKeyOf } from './avatar.service';
export { findTempUpload, takeTempUpload } from './temp-uploads';
