import { describe, expect, it } from 'vitest';
import { dicomContainerId, dicomFileName } from './dicom-view';

describe('DICOM viewer helpers', () => {
  it.each([
    ['ct.zip', null, 'ct.zip'],
    ['slice.DCM', null, 'slice.DCM'],
    ['exam', 'application/zip', 'exam.zip'],
    ['exam', 'application/dicom', 'exam.dcm'],
    ['IM0001', null, 'IM0001.dcm'],
  ])('%s (%s) is read by dwv as %s', (filename, mimetype, expected) => {
    expect(dicomFileName(filename, mimetype)).toBe(expected);
  });

  it('makes container ids dwv can split into group and layer', () => {
    const id = dicomContainerId('«r1:layer-2»');
    expect(id).toMatch(/^[a-zA-Z0-9_]+$/);
    expect(id).not.toContain('-layer-');
    expect(`${id}-layer-0`.split('-layer-')).toHaveLength(2);
  });
});
