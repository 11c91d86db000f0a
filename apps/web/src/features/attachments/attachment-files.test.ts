import { describe, expect, it } from 'vitest';
import { attachmentNameFor, formatBytes, viewerKind } from './attachment-files';

const item = (overrides: Partial<Parameters<typeof viewerKind>[0]>) => ({
  bucketName: 'exams',
  attachmentType: 'generic',
  filename: null,
  mimetype: null,
  url: null,
  ...overrides,
});

describe('attachment files', () => {
  it.each([
    [{ mimetype: 'image/png', filename: 'a.png' }, 'image'],
    [{ mimetype: null, url: 'https://store/x.jpeg?sig=1' }, 'image'],
    [{ filename: 'upper.STL', mimetype: 'application/octet-stream' }, 'stl'],
    [{ mimetype: 'model/stl', filename: 'scan' }, 'stl'],
    [{ attachmentType: 'upperJawStl', filename: 'scan.zip', mimetype: 'application/zip' }, 'none'],
    [{ attachmentType: 'dicom', filename: 'ct.zip', mimetype: 'application/zip' }, 'dicom'],
    [{ filename: 'slice.dcm', mimetype: 'application/dicom' }, 'dicom'],
    [{ filename: 'report.pdf', mimetype: 'application/pdf' }, 'none'],
  ])('%j opens in the %s viewer', (overrides, expected) => {
    expect(viewerKind(item(overrides))).toBe(expected);
  });

  it.each([
    ['photoProtocol', 'forcedSmile', 'a.jpg', 'photoProtocol.forcedSmile'],
    ['photoProtocol', 'nonsense', 'a.jpg', 'photoProtocol.generic'],
    ['exams', 'upperJawStl', 'u.stl', 'exams.upperJawStl'],
    ['exams', 'generic', 'ct.zip', 'exams.dicom'],
    ['exams', 'generic', 'slice.DCM', 'exams.dicom'],
    ['exams', 'generic', 'scan.stl', 'exams.generic'],
    ['exams', 'object', 'guide.zip', 'exams.object'],
    ['planning', 'generic', 'plan.stl', 'planning'],
  ] as const)('%s + %s + %s → %s', (bucket, kind, filename, expected) => {
    expect(attachmentNameFor(bucket, kind, filename)).toBe(expected);
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(800 * 1024)).toBe('800 kB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(null)).toBe('');
    // The interface language ptBR is not a locale tag; it must not throw.
    expect(formatBytes(1.5 * 1024 * 1024, 'ptBR')).toBe('1,5 MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'es')).toBe('1,5 MB');
  });
});
