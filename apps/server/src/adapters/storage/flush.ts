import { open } from 'node:fs/promises';

/*
 * What the local store answers as received must survive a power cut: PostgreSQL makes a commit
 * durable, and a file the database names (an attachment confirmed, a receipt the browser relies
 * on) must be on the disk before that. Without a flush, a write or a rename lives in the page
 * cache for up to half a minute. So a file's bytes are flushed before anything points at them (a
 * receipt, a rename into place), and a folder is flushed after an entry is renamed into it.
 */

async function flush(path: string, call: 'datasync' | 'sync'): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle[call]();
  } finally {
    await handle.close();
  }
}

/** Flushes a file's bytes (written through any descriptor) to the disk. */
export const flushFile = (path: string) => flush(path, 'datasync');

/** Flushes a folder's entries, so a file renamed into it is found there after a crash. */
export const flushFolder = (path: string) => flush(path, 'sync');
