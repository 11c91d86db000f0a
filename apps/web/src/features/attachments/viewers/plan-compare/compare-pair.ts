import { stlRoleOf } from '../stl-scene';

/**
 * Which files the compare viewer shows: the planning STL files it can compare, the pair it opens
 * with, which of the two is the newer, and the case's jaw scans to show under them.
 */

export interface CompareCandidate {
  id: number;
  bucketName: string;
  attachmentType: string;
  filename: string | null;
  status: string;
  deletedAt?: string | null;
  /** The file's place in its version chain (1 when the server does not send versions). */
  version?: number;
  /** The file this one answers (its previous version), when the server sends versions. */
  previousVersionId?: number | null;
}

const usable = (file: CompareCandidate) => !file.deletedAt && file.status !== 'uploading';

/** Older first: by version, then by upload order (ids grow with uploads). */
const byAge = (a: CompareCandidate, b: CompareCandidate) =>
  (a.version ?? 1) - (b.version ?? 1) || a.id - b.id;

/** The case's planning STL files that can be compared, older first. */
export function comparablePlans<T extends CompareCandidate>(files: readonly T[]): T[] {
  return files.filter((file) => usable(file) && stlRoleOf(file) === 'planning').sort(byAge);
}

/** A planning STL file offers Compare when the case has another one. */
export function canCompare(files: readonly CompareCandidate[], id: number): boolean {
  const plans = comparablePlans(files);
  return plans.length >= 2 && plans.some((file) => file.id === id);
}

/**
 * The file the opened one is compared with at first: its previous version; else the version
 * that answers it; else the latest planning file before it; else the next one after it.
 */
export function defaultCompareWith(
  files: readonly CompareCandidate[],
  openedId: number,
): number | null {
  const plans = comparablePlans(files);
  const opened = plans.find((file) => file.id === openedId);
  if (!opened) return null;
  const others = plans.filter((file) => file.id !== openedId);
  const previous = others.find((file) => file.id === opened.previousVersionId);
  if (previous) return previous.id;
  const next = others.find((file) => file.previousVersionId === openedId);
  if (next) return next.id;
  const before = others.filter((file) => byAge(file, opened) < 0);
  return (before.at(-1) ?? others[0])?.id ?? null;
}

/** The two files of a comparison, older and newer (the deviation map colours the newer). */
export function orderPair<T extends CompareCandidate>(a: T, b: T): { older: T; newer: T } {
  return byAge(a, b) <= 0 ? { older: a, newer: b } : { older: b, newer: a };
}

/** The latest upper- and lower-jaw scans (STL), drawn under the plan when asked. */
export function jawScans<T extends CompareCandidate>(files: readonly T[]): T[] {
  return (['upperJaw', 'lowerJaw'] as const).flatMap((role) => {
    const latest = files
      .filter((file) => usable(file) && stlRoleOf(file) === role)
      .sort((a, b) => b.id - a.id)[0];
    return latest ? [latest] : [];
  });
}
