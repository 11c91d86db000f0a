import { fileTypeFromBuffer } from 'file-type';
import type { FileType } from '@dentflow/domain';

/** How many first bytes the checks need (file-type reads up to ~4 kB). */
export const SNIFF_BYTES = 4100;

const isZip = (bytes: Buffer) =>
  bytes.length >= 4 &&
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));

/** DICOM Part 10: a 128-byte preamble, then `DICM`. */
const isDicom = (bytes: Buffer) =>
  bytes.length >= 132 && bytes.subarray(128, 132).toString('latin1') === 'DICM';

/**
 * Binary STL: an 80-byte header and a uint32 triangle count, each triangle 50 bytes, so the size
 * is exactly 84 + 50·n. ASCII STL starts with `solid` (after optional blanks).
 */
function isStl(bytes: Buffer, size: number): boolean {
  if (bytes.length >= 84 && size === 84 + 50 * bytes.readUInt32LE(80)) return true;
  const start = bytes.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  return /^solid(\s|$)/.test(start) && /facet|endsolid/.test(bytes.toString('latin1'));
}

/** Whether the first bytes of an object of `size` bytes are a file of the expected type. */
export async function contentMatches(
  expected: FileType,
  bytes: Buffer,
  size: number,
): Promise<boolean> {
  switch (expected) {
    case 'stl':
      return isStl(bytes, size);
    case 'dicom':
      return isDicom(bytes);
    case 'zip':
      return isZip(bytes);
    default: {
      const detected = await fileTypeFromBuffer(bytes);
      const ext = detected?.ext === 'jpg' ? 'jpeg' : detected?.ext;
      return ext === expected;
    }
  }
}
