import { describe, expect, it } from 'vitest';
import {
  allowedAttachmentActions,
  areAttachmentsValid,
  attachmentLabel,
  attachmentLabelKey,
  attachmentStatusAfter,
  ATTACHMENT_KINDS,
  completeUpload,
  deleteAttachment,
  initialAttachmentStatus,
  isAttachmentOk,
  isImageAttachment,
  isInputBucket,
  isPublished,
  joinCaseAttachments,
  type Attachment,
} from './attachment';

const attachment = (patch: Partial<Attachment> = {}): Attachment => ({
  id: 7,
  caseId: 1,
  userId: 2,
  bucketName: 'photoProtocol',
  attachmentType: 'naturalSmile',
  stringId: null,
  required: false,
  status: 'public',
  freeze: false,
  filename: 'smile.jpg',
  filesize: 1000,
  url: 'https://files/smile.jpg',
  uploadedAt: '2024-01-01T00:00:00Z',
  createdAt: '2024-01-01T00:00:00Z',
  deletedAt: null,
  justification: null,
  mimetype: 'image/jpeg',
  version: 1,
  chainId: 7,
  previousVersionId: null,
  publishedAt: null,
  publishedBy: null,
  supersededAt: null,
  sha256: null,
  ...patch,
});

describe('is-image rule', () => {
  it.each([
    [{ mimetype: 'image/png', url: 'x.stl' }, true],
    [{ mimetype: 'model/stl', url: 'x.jpg' }, false],
    [{ mimetype: null, url: 'https://f/a.JPG' }, true],
    [{ mimetype: null, url: 'https://f/a.jpeg?sig=1' }, true],
    [{ mimetype: null, url: 'https://f/a.png' }, true],
    [{ mimetype: null, url: 'https://f/a.gif' }, false],
    [{ mimetype: '', url: 'https://f/a.stl' }, false],
    [{ mimetype: null, url: null }, false],
  ])('%j → %s', (value, image) => expect(isImageAttachment(value)).toBe(image));
});

describe('label key: bucket plus type, or plus generic when the type equals the id', () => {
  it.each([
    [
      { id: 7, bucketName: 'photoProtocol', attachmentType: 'naturalSmile' },
      'photoProtocol.naturalSmile',
    ],
    [{ id: 7, bucketName: 'exams', attachmentType: '7' }, 'exams.generic'],
    [{ id: 7, bucketName: 'exams', attachmentType: 7 }, 'exams.generic'],
    [{ id: 7, bucketName: 'exams', attachmentType: 'dicom' }, 'exams.dicom'],
  ])('%j → %s', (value, key) => expect(attachmentLabelKey(value)).toBe(key));

  it('every kind has a label in each language', () => {
    for (const [bucket, kinds] of Object.entries(ATTACHMENT_KINDS)) {
      for (const kind of kinds) {
        for (const language of ['en', 'ptBR', 'es'] as const) {
          const label = attachmentLabel(language, {
            id: 0,
            bucketName: bucket,
            attachmentType: kind,
          });
          expect(label).not.toMatch(/^attachments\./);
        }
      }
    }
    expect(
      attachmentLabel('ptBR', {
        id: 1,
        bucketName: 'photoProtocol',
        attachmentType: 'naturalSmile',
      }),
    ).toBe('Sorriso natural');
    expect(attachmentLabel('en', { id: 1, bucketName: 'exams', attachmentType: 'mystery' })).toBe(
      'Exam file',
    );
  });

  it('planning is separate from the input buckets', () => {
    expect(isInputBucket('photoProtocol')).toBe(true);
    expect(isInputBucket('exams')).toBe(true);
    expect(isInputBucket('planning')).toBe(false);
  });
});

describe('statuses: publish and approved are published; only request_change is not OK', () => {
  it.each([
    ['public', false, true],
    ['private', false, true],
    ['request_change', false, false],
    ['publish', true, true],
    ['approved', true, true],
    ['uploading', false, true],
  ])('%s → published %s, ok %s', (status, published, ok) => {
    expect(isPublished(status)).toBe(published);
    expect(isAttachmentOk(status)).toBe(ok);
  });
});

describe('actions', () => {
  it.each([
    ['private', 'publish', 'publish'],
    ['publish', 'unpublish', 'private'],
    ['publish', 'approve', 'approved'],
    ['publish', 'requestChange', 'request_change'],
    ['approved', 'requestChange', 'request_change'],
    ['request_change', 'cancelChangeRequest', 'publish'],
    ['private', 'approve', null],
    ['approved', 'publish', null],
    ['uploading', 'publish', null],
  ] as const)('%s --%s--> %s', (status, action, to) =>
    expect(attachmentStatusAfter({ status, freeze: false }, action)).toBe(to),
  );

  it('frozen attachments do not move or get deleted', () => {
    expect(attachmentStatusAfter({ status: 'publish', freeze: true }, 'approve')).toBeNull();
    expect(allowedAttachmentActions({ status: 'publish', freeze: true })).toEqual([]);
  });

  it('lists allowed actions', () => {
    expect(allowedAttachmentActions({ status: 'publish', freeze: false })).toEqual([
      'unpublish',
      'approve',
      'requestChange',
      'delete',
    ]);
    expect(
      allowedAttachmentActions({ status: 'public', freeze: false, deletedAt: '2024' }),
    ).toEqual([]);
  });

  it('deleting a required attachment resets it; a non-required one is removed', () => {
    expect(deleteAttachment(attachment({ required: false }))).toEqual({ kind: 'remove' });
    const reset = deleteAttachment(attachment({ required: true, status: 'public' }));
    expect(reset.kind).toBe('reset');
    if (reset.kind === 'reset') {
      expect(reset.attachment).toMatchObject({
        id: 7,
        url: null,
        filename: null,
        filesize: null,
        uploadedAt: null,
        mimetype: null,
      });
      expect(reset.attachment.attachmentType).toBe('naturalSmile');
    }
  });

  it('uploads start per bucket, finish, then join the case list', () => {
    expect(initialAttachmentStatus('planning')).toBe('private');
    expect(initialAttachmentStatus('exams')).toBe('public');
    const uploading = attachment({
      status: 'uploading',
      url: null,
      uploadedAt: null,
      uploadPercent: 40,
    });
    const done = completeUpload(uploading, {
      url: 'u',
      uploadedAt: 't',
      filesize: 5,
      mimetype: 'model/stl',
    });
    expect(done).toMatchObject({ status: 'public', uploadPercent: 100, url: 'u' });
    const list = joinCaseAttachments([attachment({ id: 1 })], done);
    expect(list.map((a) => a.id)).toEqual([1, 7]);
    expect(
      joinCaseAttachments(list, { ...done, filename: 'again' }).map((a) => a.filename),
    ).toEqual(['smile.jpg', 'again']);
  });

  it('attachments valid when at least one is public', () => {
    expect(
      areAttachmentsValid([
        { status: 'private', deletedAt: null },
        { status: 'public', deletedAt: null },
      ]),
    ).toBe(true);
    expect(areAttachmentsValid([{ status: 'publish', deletedAt: null }])).toBe(false);
    expect(areAttachmentsValid([])).toBe(false);
  });
});
