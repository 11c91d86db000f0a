import { join } from 'node:path';
import type { Config } from '../../config';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import type { Storage } from './storage';

/** S3 when `S3_BUCKET` is set, else the local folder `DATA_DIR/files`. */
export function createStorage(config: Config): Storage {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalStorage({ rootDir: join(config.dataDir, 'files'), secret: config.jwtSecret });
}
