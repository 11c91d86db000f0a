import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../../adapters/storage/storage';

/**
 * SHA-256 (hex) of an object's bytes as stored, streamed from the store (local file or S3) so a
 * 1 GB plan never sits in memory. Files are immutable after their upload is confirmed
 * (docs/decisions/019), so the hash of the bytes served is computed once.
 */
export async function sha256OfStoredObject(storage: Storage, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(await storage.getObjectStream(key), hash);
  return hash.digest('hex');
}
