import { describe, expect, it } from 'vitest';
import {
  attachmentActionsFor,
  attachmentActorFor,
  attachmentFileRejection,
  emptyRequiredSlots,
  fileEventDetailFor,
  fileTypeOfMime,
  fileTypeOfName,
  mayUploadAttachment,
  mayViewAttachment,
  parseAttachmentName,
  requiredAttachmentSlots,
  type AttachmentActor,
  type AttachmentCaseState,
} from './attachment-rules';

const MB = 1024 * 1024;

describe('parseAttachmentName', () => {
  it.each([
    ['photoProtocol.forcedSmile', { bucket: 'photoProtocol', kind: 'forcedSmile' }],
    ['exams.upperJawStl', { bucket: 'exams', kind: 'upperJawStl' }],
    ['exams.dicom', { bucket: 'exams', kind: 'dicom' }],
    ['planning', { bucket: 'planning', kind: 'generic' }],
    ['planning.generic', { bucket: 'planning', kind: 'generic' }],
    ['avatar', { bucket: 'avatar', kind: 'generic' }],
    ['photoProtocol.smileForced', null],
    ['photoProtocol.forcedSmile.x', null],
    ['exams.forcedSmile', null],
    ['receipts', null],
    ['', null],
    ['__proto__', null],
    ['exams.constructor', null],
  ])('%s → %j', (name, parsed) => expect(parseAttachmentName(name)).toEqual(parsed));
});

describe('file type of a name or a mimetype', () => {
  it.each([
    ['a.JPG', 'jpeg'],
    ['a.jpeg', 'jpeg'],
    ['scan.upper.stl', 'stl'],
    ['ct.dcm', 'dicom'],
    ['series.zip', 'zip'],
    ['a.pdf', null],
    ['stl', null],
    ['.stl', 'stl'],
    ['a.', null],
  ])('%s → %s', (name, type) => expect(fileTypeOfName(name)).toBe(type));
  it.each([
    ['image/png', 'png'],
    ['IMAGE/JPG', 'jpeg'],
    ['application/octet-stream', null],
    ['application/vnd.ms-pki.stl', 'stl'],
    [null, null],
  ])('%s → %s', (mime, type) => expect(fileTypeOfMime(mime)).toBe(type));
});

describe('file rules per bucket and kind', () => {
  it.each([
    ['photoProtocol', 'naturalSmile', 'smile.jpg', 5 * MB, null, null],
    ['photoProtocol', 'naturalSmile', 'smile.gif', 30 * MB, null, null],
    ['photoProtocol', 'naturalSmile', 'smile.jpg', 30 * MB + 1, null, 'size'],
    ['photoProtocol', 'naturalSmile', 'scan.stl', 1000, null, 'type'],
    ['photoProtocol', 'naturalSmile', 'smile.jpg', 1000, 'image/png', 'type'],
    ['photoProtocol', 'naturalSmile', 'smile.jpg', 1000, 'application/octet-stream', null],
    ['photoProtocol', 'naturalSmile', 'smile.jpg', 0, null, 'size'],
    ['exams', 'upperJawStl', 'upper.stl', 900 * MB, null, null],
    ['exams', 'upperJawStl', 'upper.stl', 1024 * MB + 1, null, 'size'],
    ['exams', 'upperJawStl', 'upper.dcm', 1000, null, 'type'],
    ['exams', 'dicom', 'ct.dcm', 1000, null, null],
    ['exams', 'dicom', 'ct.zip', 1000, null, null],
    ['exams', 'dicom', 'ct.stl', 1000, null, 'type'],
    ['exams', 'generic', 'x.png', 1000, null, null],
    ['planning', 'generic', 'plan.stl', 1000, null, null],
    ['planning', 'generic', 'plan.zip', 1000, null, null],
    ['planning', 'generic', 'plan.pdf', 1000, null, 'type'],
    ['avatar', 'generic', 'me.png', 800 * 1024, null, null],
    ['avatar', 'generic', 'me.png', 800 * 1024 + 1, null, 'size'],
    ['avatar', 'generic', 'me.stl', 1000, null, 'type'],
    ['productThumbnail', 'generic', 'p.jpg', 1000, null, null],
  ] as const)('%s.%s %s %i bytes (%s) → %s', (bucket, kind, filename, filesize, mimetype, why) =>
    expect(attachmentFileRejection(bucket, kind, { filename, filesize, mimetype })).toBe(why),
  );
});

describe('required slots per product category (decision 012)', () => {
  const names = (categories: number[], jaw?: 'upper' | 'lower' | 'both' | null) =>
    requiredAttachmentSlots(categories, jaw).map((s) => `${s.bucketName}.${s.attachmentType}`);
  const photos = [
    'photoProtocol.lipRetractor',
    'photoProtocol.lipAtRest',
    'photoProtocol.naturalSmile',
    'photoProtocol.forcedSmile',
    'photoProtocol.lateralAtRest',
    'photoProtocol.lateralNaturalSmile',
    'photoProtocol.photo45Degrees',
    'photoProtocol.upperOcclusal',
  ];
  const jaws = ['exams.upperJawStl', 'exams.lowerJawStl'];
  it.each([
    [[1], jaws],
    [[2], [...photos, ...jaws]],
    [[3], [...jaws, 'exams.dicom']],
    [[4], [...photos, ...jaws]],
    [[5], []],
    [[6], []],
    [[7], []],
    [[8], []],
    [[], []],
    [
      [1, 3],
      [...jaws, 'exams.dicom'],
    ],
    [
      [2, 3],
      [...photos, ...jaws, 'exams.dicom'],
    ],
  ])('categories %j', (categories, expected) => expect(names(categories)).toEqual(expected));
  it('a single jaw requires only its scan', () => {
    expect(names([3], 'upper')).toEqual(['exams.upperJawStl', 'exams.dicom']);
    expect(names([3], 'lower')).toEqual(['exams.lowerJawStl', 'exams.dicom']);
    expect(names([3], 'both')).toEqual([...jaws, 'exams.dicom']);
  });
  it('a slot with a file is not empty', () => {
    const empty = emptyRequiredSlots(requiredAttachmentSlots([1]), [
      { bucketName: 'exams', attachmentType: 'upperJawStl' },
      { bucketName: 'exams', attachmentType: 'dicom' },
    ]);
    expect(empty).toEqual([{ bucketName: 'exams', attachmentType: 'lowerJawStl' }]);
  });
});

const open: AttachmentCaseState = {
  caseStatus: 'new',
  caseArchived: false,
  changeRequested: false,
};
const execute: AttachmentCaseState = { ...open, caseStatus: 'execute' };

describe('who may upload to which bucket', () => {
  it.each([
    ['owner', 'photoProtocol', open, true],
    ['owner', 'exams', { ...open, caseStatus: 'revision' }, true],
    ['owner', 'exams', { ...open, caseStatus: 'checkingout' }, true],
    ['owner', 'exams', execute, false],
    ['owner', 'exams', { ...execute, changeRequested: true }, true],
    ['owner', 'planning', open, false],
    ['owner', 'photoProtocol', { ...open, caseArchived: true }, false],
    ['planner', 'planning', execute, true],
    ['planner', 'exams', open, false],
    ['supervisor', 'exams', execute, true],
    ['supervisor', 'planning', { ...execute, caseStatus: 'cancelled' }, false],
    ['supervisor', 'avatar', open, false],
    ['member', 'photoProtocol', open, false],
  ] as const)('%s → %s in %j: %s', (actor, bucket, state, may) =>
    expect(mayUploadAttachment(actor, bucket, state)).toBe(may),
  );
});

describe('attachment actions per actor (every cell)', () => {
  const file = (bucketName: string, status: string, freeze = false) => ({
    bucketName,
    status,
    freeze,
    deletedAt: null,
  });
  it.each<[AttachmentActor, ReturnType<typeof file>, AttachmentCaseState, string[]]>([
    // input files
    ['owner', file('photoProtocol', 'public'), open, ['delete']],
    ['owner', file('photoProtocol', 'public'), execute, []],
    ['owner', file('exams', 'public'), { ...execute, changeRequested: true }, ['delete']],
    ['planner', file('exams', 'public'), open, []],
    ['member', file('exams', 'public'), open, []],
    ['supervisor', file('exams', 'public'), execute, ['delete']],
    // planning files
    ['planner', file('planning', 'private'), execute, ['publish', 'delete']],
    ['planner', file('planning', 'publish'), execute, ['unpublish', 'delete']],
    ['planner', file('planning', 'approved'), execute, ['delete']],
    ['owner', file('planning', 'private'), execute, []],
    ['owner', file('planning', 'publish'), execute, ['approve', 'requestChange']],
    ['owner', file('planning', 'approved'), execute, ['requestChange']],
    ['owner', file('planning', 'request_change'), execute, ['cancelChangeRequest']],
    ['member', file('planning', 'publish'), execute, []],
    [
      'supervisor',
      file('planning', 'publish'),
      execute,
      ['unpublish', 'approve', 'requestChange', 'delete'],
    ],
    ['supervisor', file('planning', 'private'), execute, ['publish', 'delete']],
    // frozen
    ['supervisor', file('planning', 'publish', true), execute, []],
    ['owner', file('planning', 'publish'), { ...execute, caseArchived: true }, []],
    ['planner', file('planning', 'private'), { ...execute, caseStatus: 'closed' }, []],
    ['supervisor', file('planning', 'uploading'), execute, []],
  ])('%s on %j in %j → %j', (actor, attachment, state, actions) =>
    expect(attachmentActionsFor(actor, attachment, state)).toEqual(actions),
  );
  it('a deleted file takes nothing', () =>
    expect(
      attachmentActionsFor('supervisor', { ...file('exams', 'public'), deletedAt: 'x' }, open),
    ).toEqual([]));
  it.each<AttachmentActor>(['supervisor', 'owner', 'planner'])(
    'a superseded version takes nothing from %s',
    (actor) => {
      const superseded = { ...file('planning', 'request_change'), supersededAt: 'x' };
      expect(attachmentActionsFor(actor, superseded, execute)).toEqual([]);
      expect(
        attachmentActionsFor(actor, { ...superseded, supersededAt: null }, execute),
      ).not.toEqual([]);
    },
  );
});

describe('who sees a file', () => {
  it.each([
    ['owner', 'public', true],
    ['owner', 'private', false],
    ['member', 'publish', true],
    ['owner', 'request_change', true],
    ['planner', 'private', true],
    ['supervisor', 'private', true],
    ['supervisor', 'uploading', false],
  ] as const)('%s sees %s: %s', (actor, status, sees) =>
    expect(mayViewAttachment(actor, { status })).toBe(sees),
  );
});

describe('the attachment actor of a case caller', () => {
  it.each([
    [{ isStaff: true, relation: 'owner' }, 'supervisor'],
    [{ isStaff: false, relation: 'owner' }, 'owner'],
    [{ isStaff: false, relation: 'planner' }, 'planner'],
    [{ isStaff: false, relation: 'member' }, 'member'],
    [{ isStaff: false, relation: 'partner' }, 'member'],
  ] as const)('%o is %s', (access, actor) => expect(attachmentActorFor(access)).toBe(actor));
});

describe('a file event in the history names the file only to who saw it', () => {
  const detail = { attachmentId: 7, fileName: 'plan-v2.stl' };
  it.each([
    // sent as an unpublished planning file
    ['owner', null, 'private', false],
    ['member', null, 'private', false],
    ['planner', null, 'private', true],
    ['supervisor', null, 'private', true],
    // published, or an input file
    ['owner', 'private', 'publish', true],
    ['owner', null, 'public', true],
    // taken back, or deleted while private
    ['owner', 'publish', 'private', false],
    ['owner', 'private', null, false],
    ['planner', 'private', null, true],
    // deleted after it was public
    ['owner', 'public', null, true],
  ] as const)('%s, %s → %s: named %s', (actor, fromStatus, toStatus, named) =>
    expect('fileName' in fileEventDetailFor(actor, { fromStatus, toStatus, detail })).toBe(named),
  );

  it('keeps the rest of the detail and events without a file name', () => {
    expect(fileEventDetailFor('owner', { fromStatus: null, toStatus: 'private', detail })).toEqual({
      attachmentId: 7,
    });
    const other = { transactionId: 3 };
    expect(
      fileEventDetailFor('owner', { fromStatus: null, toStatus: 'private', detail: other }),
    ).toBe(other);
  });
});
