import { describe, expect, it } from 'vitest';
import {
  distanceMm,
  formatDistanceMm,
  isPinnableFile,
  mayPin,
  mayResolvePin,
  newPinBodySchema,
  pinChatChannel,
  PIN_NOTE_MAX_LENGTH,
} from './pins';
import type { AttachmentActor } from '../attachments/attachment-rules';

const body = {
  point: [1.5, -2, 10],
  normal: [0, 0, 1],
  camera: { position: [0, 0, 120], target: [0, 0, 0] },
  note: 'Move this implant 1 mm distally',
};

const fieldsOf = (value: unknown) => {
  const result = newPinBodySchema.safeParse(value);
  return result.success ? null : result.error.issues.map((issue) => issue.path.join('.'));
};

describe('newPinBodySchema', () => {
  it('accepts a pin on the mesh with its camera, and trims the note', () => {
    const parsed = newPinBodySchema.parse({ ...body, note: '  Check  ' });
    expect(parsed.note).toBe('Check');
  });

  it.each([
    ['a normal of length 0.9995 (float rounding)', { normal: [0, 0.9995, 0] }],
    ['coordinates at the bound', { point: [100_000, -100_000, 0] }],
    ['a note of 500 characters', { note: 'x'.repeat(PIN_NOTE_MAX_LENGTH) }],
  ])('accepts %s', (_name, patch) => {
    expect(fieldsOf({ ...body, ...patch })).toBeNull();
  });

  it.each([
    ['an empty note', { note: '   ' }, 'note'],
    ['a note over 500 characters', { note: 'x'.repeat(501) }, 'note'],
    ['a missing note', { note: undefined }, 'note'],
    ['a normal that is not unit length', { normal: [0, 0, 2] }, 'normal'],
    ['a zero normal', { normal: [0, 0, 0] }, 'normal'],
    ['a point past the bound', { point: [100_001, 0, 0] }, 'point.0'],
    ['a point with two coordinates', { point: [1, 2] }, 'point'],
    ['a text coordinate', { point: ['1', 2, 3] }, 'point.0'],
    ['an infinite coordinate', { point: [Infinity, 0, 0] }, 'point.0'],
    [
      'a camera at its target',
      { camera: { position: [1, 1, 1], target: [1, 1, 1] } },
      'camera.position',
    ],
    ['a camera without target', { camera: { position: [0, 0, 1] } }, 'camera.target'],
  ])('refuses %s on its field', (_name, patch, field) => {
    expect(fieldsOf({ ...body, ...patch })).toContain(field);
  });
});

describe('isPinnableFile', () => {
  it.each([
    [{ bucketName: 'planning', filename: 'plan.stl' }, true],
    [{ bucketName: 'planning', filename: 'PLAN.STL' }, true],
    [{ bucketName: 'planning', filename: 'plan.zip' }, false],
    [{ bucketName: 'planning', filename: null }, false],
    [{ bucketName: 'exams', filename: 'upper.stl' }, false],
    [{ bucketName: 'photoProtocol', filename: 'smile.jpg' }, false],
  ])('%o → %s', (file, expected) => {
    expect(isPinnableFile(file)).toBe(expected);
  });
});

describe('who pins and resolves', () => {
  const AUTHOR = 7;
  it.each<[AttachmentActor, number, boolean, boolean]>([
    ['owner', 1, true, true],
    ['planner', 1, true, true],
    ['supervisor', 1, true, true],
    ['member', 1, false, false],
    // A pin's author keeps the right to resolve it (a planner who left the case's service).
    ['member', AUTHOR, false, true],
  ])('%s (user %i): pin %s, resolve %s', (actor, userId, pin, resolve) => {
    expect(mayPin(actor)).toBe(pin);
    expect(mayResolvePin(actor, { authorId: AUTHOR }, userId)).toBe(resolve);
  });
});

describe('pinChatChannel', () => {
  it.each([
    ['private', 4],
    ['publish', 3],
    ['approved', 3],
    ['request_change', 3],
  ])('a %s file → channel %i', (status, channel) => {
    expect(pinChatChannel(status)).toBe(channel);
  });
});

describe('measurement', () => {
  it('measures the straight distance between two points', () => {
    expect(distanceMm([0, 0, 0], [3, 4, 12])).toBe(13);
  });

  it.each([
    ['en', 12.44, '12.4 mm'],
    ['ptBR', 12.44, '12,4 mm'],
    ['es', 12.46, '12,5 mm'],
    ['en', 1234.5, '1,234.5 mm'],
    ['ptBR', 0, '0,0 mm'],
  ] as const)('%s writes %f as %s', (language, mm, text) => {
    expect(formatDistanceMm(mm, language)).toBe(text);
  });
});
