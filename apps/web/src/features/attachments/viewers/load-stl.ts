import type { BufferGeometry } from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { getAttachment } from '../api/get-attachment';

/** Downloads and parses one STL (binary or ASCII) through a fresh signed link. */
export async function loadStl(attachmentId: number, signal: AbortSignal): Promise<BufferGeometry> {
  const { url } = await getAttachment(attachmentId);
  if (!url) throw new Error('no url');
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`download failed (${response.status})`);
  const geometry = new STLLoader().parse(await response.arrayBuffer());
  // Many scanners write zero normals: recomputed from the faces, or the model renders black.
  geometry.computeVertexNormals();
  geometry.computeBoundingBox();
  return geometry;
}
