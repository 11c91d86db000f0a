import { existsSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalStorage, type LocalStorage } from './local-storage';

/**
 * A crash cannot be staged in a test, so these record every flush the store asks of the disk
 * (`datasync` of a file, `sync` of a folder) with what existed at that moment, and check the
 * order that makes a receipt or a rename never point at bytes still in the page cache.
 */
interface Flush {
  kind: 'file' | 'folder';
  path: string;
  /** What `watch` saw at the moment of the flush. */
  seen: Record<string, boolean>;
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'dentflow-flush-')));
let storage: LocalStorage;
let flushes: Flush[] = [];
let watched: Record<string, string> = {};
const pathOf = (key: string) => join(root, ...key.split('/'));

function look(): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(watched).map(([name, path]) => [name, existsSync(path)]),
  );
}

beforeAll(async () => {
  storage = createLocalStorage({ rootDir: root, secret: 'flush-test-secret-0123456789' });
  const probe = await open(import.meta.filename, 'r');
  const fileHandle = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const { datasync, sync } = fileHandle;
  const recorded = (kind: Flush['kind'], original: () => Promise<void>) =>
    async function (this: FileHandle) {
      flushes.push({ kind, path: readlinkSync(`/proc/self/fd/${this.fd}`), seen: look() });
      return original.call(this);
    };
  // Server test files share a worker, so the spies are removed again below.
  vi.spyOn(fileHandle, 'datasync').mockImplementation(recorded('file', datasync));
  vi.spyOn(fileHandle, 'sync').mockImplementation(recorded('folder', sync));
});

beforeEach(() => {
  flushes = [];
  watched = {};
});

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

const flushesOf = (kind: Flush['kind'], path: string) =>
  flushes.filter((flush) => flush.kind === kind && flush.path === path);

describe('the local store flushes what it answers as received', () => {
  it('a part reaches the disk before its receipt, and completion flushes the rename', async () => {
    const key = 'uploads/cases/1/flush-part';
    const uploadId = await storage.createMultipartUpload(key, 'application/zip');
    const data = join(root, '.multipart', uploadId, 'data');
    watched = { receipt: join(root, '.multipart', uploadId, 'part-1'), target: pathOf(key) };
    const url = await storage.signPartUrl({
      key,
      uploadId,
      partNumber: 1,
      start: 0,
      size: 4096,
      expiresInSec: 60,
    });
    const grant = storage.verifyPartToken(url.split('?t=')[1]!);
    const etag = await storage.receivePart(grant, Readable.from([Buffer.alloc(4096, 1)]), 4096);

    expect(flushesOf('file', data)).toEqual([
      { kind: 'file', path: data, seen: { receipt: false, target: false } },
    ]);

    flushes = [];
    await storage.completeMultipartUpload(key, uploadId, [{ partNumber: 1, etag }]);
    expect(flushesOf('folder', dirname(pathOf(key)))).toEqual([
      { kind: 'folder', path: dirname(pathOf(key)), seen: { receipt: true, target: true } },
    ]);
  });

  it('a file posted through a policy is flushed before it is renamed into place', async () => {
    const key = 'uploads/cases/1/flush-post';
    watched = { target: pathOf(key) };
    const size = await storage.receiveUpload(
      { key, contentType: 'image/png', minSize: 1, maxSize: 1024, expiresAt: Date.now() + 60_000 },
      Readable.from([Buffer.alloc(512, 2)]),
    );
    expect(size).toBe(512);

    const [fileFlush, ...others] = flushes.filter((flush) => flush.kind === 'file');
    expect(others).toEqual([]);
    expect(dirname(fileFlush!.path)).toBe(join(root, '.tmp'));
    expect(fileFlush!.seen).toEqual({ target: false });
    expect(flushesOf('folder', dirname(pathOf(key)))).toEqual([
      { kind: 'folder', path: dirname(pathOf(key)), seen: { target: true } },
    ]);
  });

  it('a move flushes the folder it renamed into', async () => {
    await storage.put('uploads/cases/1/flush-from', Buffer.from('x'), 'text/plain');
    flushes = [];
    watched = { target: pathOf('cases/1/flush-to') };
    expect(await storage.move('uploads/cases/1/flush-from', 'cases/1/flush-to')).toEqual({
      size: 1,
    });
    expect(flushesOf('folder', join(root, 'cases', '1'))).toEqual([
      { kind: 'folder', path: join(root, 'cases', '1'), seen: { target: true } },
    ]);
  });

  it('a server-made file is flushed before it is renamed into place', async () => {
    const key = 'avatars/1/flush-put';
    watched = { target: pathOf(key) };
    await storage.put(key, Buffer.from('thumbnail'), 'image/webp');
    expect(flushes.map(({ kind, seen }) => ({ kind, seen }))).toEqual([
      { kind: 'file', seen: { target: false } },
      { kind: 'folder', seen: { target: true } },
    ]);
    expect(flushes[1]!.path).toBe(dirname(pathOf(key)));
  });
});
