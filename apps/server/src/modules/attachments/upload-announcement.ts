/** What a client says of a file before sending it (create and resumable create). */
export interface UploadAnnouncement {
  filename: string;
  filesize: number;
  attachment_name: string;
  mimetype?: string;
  /** A planning upload answering this file: it becomes the file's next version. */
  replacesId?: number;
}
