import { isPublished } from '../attachments/attachment';

/**
 * Version chains of planning files: a planning file answered by a new upload is the next version
 * (v1, v2, …) of the same plan slot. A chain is named by the id of its v1. The current version is
 * the latest published one that no later publication superseded; earlier versions stay listed,
 * read-only (docs/decisions/028-plan-versions-and-approval-record.md).
 */

export interface VersionedFile {
  id: number;
  caseId: number | null;
  bucketName: string;
  status: string;
  version: number;
  /** Id of the chain's v1 (a v1 names itself). */
  chainId: number;
  previousVersionId: number | null;
  publishedAt: string | null;
  supersededAt: string | null;
  deletedAt?: string | null;
}

export interface PlanChain<T extends VersionedFile> {
  chainId: number;
  /** Every listed version, oldest first. */
  versions: T[];
  /** The latest published version still in force, or null (nothing published yet). */
  current: T | null;
  /** A newer version not published yet (the planner's next answer), or null. */
  draft: T | null;
  /** Earlier versions, superseded by a later publication, newest first. */
  history: T[];
}

const listed = (file: VersionedFile) =>
  file.bucketName === 'planning' && !file.deletedAt && file.status !== 'uploading';

/** The case's planning files grouped into chains, in the order of their first version. */
export function planVersionChains<T extends VersionedFile>(files: readonly T[]): PlanChain<T>[] {
  const byChain = new Map<number, T[]>();
  for (const file of files.filter(listed)) {
    const chain = byChain.get(file.chainId) ?? [];
    chain.push(file);
    byChain.set(file.chainId, chain);
  }
  return [...byChain.entries()]
    .sort(([a], [b]) => a - b)
    .map(([chainId, versions]) => {
      versions.sort((a, b) => a.version - b.version || a.id - b.id);
      // Published, approved or awaiting a change: what the client sees.
      const inForce = versions.filter((v) => v.status !== 'private' && v.supersededAt === null);
      const current = inForce.at(-1) ?? null;
      const newest = versions.at(-1)!;
      const draft =
        newest !== current && newest.supersededAt === null && !isPublished(newest.status)
          ? newest
          : null;
      const history = versions.filter((v) => v.supersededAt !== null).reverse();
      return { chainId, versions, current, draft, history };
    });
}

/** A superseded version is read-only: it stays listed, viewable and downloadable. */
export const isSupersededVersion = (file: { supersededAt?: string | null }) =>
  file.supersededAt !== undefined && file.supersededAt !== null;

/** Why a planning upload may not answer `target` as its next version (`replacesId`), or null. */
export type ReplaceRejection =
  'notFound' | 'otherCase' | 'notPlanning' | 'notPublished' | 'superseded' | 'nextVersionPending';

/**
 * A new upload may replace the current version of a chain in the same case: a planning file,
 * published at some point (publish, approved or request_change) and not superseded, with no
 * other newer version waiting in the chain (`chainFiles`: the chain's listed files).
 */
export function replaceRejection(
  target: VersionedFile | undefined,
  caseId: number,
  chainFiles: readonly VersionedFile[],
): ReplaceRejection | null {
  if (!target || target.deletedAt || target.status === 'uploading') return 'notFound';
  if (target.caseId !== caseId) return 'otherCase';
  if (target.bucketName !== 'planning') return 'notPlanning';
  if (target.status === 'private') return 'notPublished';
  if (target.supersededAt !== null) return 'superseded';
  const pending = chainFiles.some(
    (file) => listed(file) && file.previousVersionId === target.id && file.supersededAt === null,
  );
  return pending ? 'nextVersionPending' : null;
}

/** The chain columns of a new upload answering `target` (or of a first version). */
export function nextVersionOf(target: Pick<VersionedFile, 'id' | 'chainId' | 'version'> | null) {
  return target
    ? { previousVersionId: target.id, chainId: target.chainId, version: target.version + 1 }
    : { previousVersionId: null, chainId: null, version: 1 };
}

/**
 * The chains a planner's new upload may answer now: those whose current version is in
 * request_change and that have no newer version waiting. With one, the upload is its next
 * version; with several the planner chooses.
 */
export function chainsAwaitingNewVersion<T extends VersionedFile>(
  files: readonly T[],
): PlanChain<T>[] {
  return planVersionChains(files).filter(
    (chain) => chain.current?.status === 'request_change' && chain.draft === null,
  );
}

/**
 * The versions an approval records: the current version of each chain that is published or
 * approved (a chain whose current version awaits a change is not what the client approves).
 */
export function approvableVersions<T extends VersionedFile>(files: readonly T[]): T[] {
  return planVersionChains(files)
    .map((chain) => chain.current)
    .filter((file): file is T => file !== null && isPublished(file.status));
}
