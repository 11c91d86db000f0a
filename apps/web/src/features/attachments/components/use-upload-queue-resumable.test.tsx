import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { Attachment } from '@dentflow/domain';
import { UploadAbortedError, UploadFailedError } from '../api/upload-to-storage';
import type { ResumableTransport, SavedUpload } from '../resumable-sender';
import { uploadKey } from '../resumable-sender';
import { useUploadQueue, type UploadTransport } from './use-upload-queue';

const PLAN = { partSize: 4, partCount: 3 };
/** A 10-byte scan: parts of 4, 4 and 2 bytes. */
const scan = () => new File(['0123456789'], 'upper.stl', { lastModified: 1700000000000 });

function memoryStore(initial: Record<string, SavedUpload> = {}) {
  const saved = new Map(Object.entries(structuredClone(initial)));
  return {
    saved,
    store: {
      load: (key: string) => structuredClone(saved.get(key) ?? null),
      save: (key: string, value: SavedUpload) => void saved.set(key, structuredClone(value)),
      remove: (key: string) => void saved.delete(key),
    },
  };
}

/** A resumable transport whose part PUTs follow `outcomes` (by call), else succeed at once. */
function fakeResumable(outcomes: ('fail' | 'hold')[] = []) {
  const held: { resolve: () => void; part: number }[] = [];
  let call = 0;
  const transport = {
    start: vi.fn(async () => ({ attachment: { id: 70 } as Attachment, upload: PLAN })),
    partUrls: vi.fn(async (_id: number, numbers: number[]) => ({
      parts: numbers.map((partNumber) => ({ partNumber, size: 4, url: `/part/${partNumber}` })),
    })),
    sendPart: vi.fn((url: string, blob: Blob, onProgress: (loaded: number) => void) => {
      const part = Number(url.split('/').pop());
      const outcome = outcomes[call++];
      let abort = () => {};
      const promise = new Promise<string>((resolve, reject) => {
        abort = () => reject(new UploadAbortedError());
        if (outcome === 'fail') reject(new UploadFailedError(0));
        else if (outcome === 'hold') {
          onProgress(blob.size / 2);
          held.push({ part, resolve: () => resolve(`"etag-${part}"`) });
        } else {
          onProgress(blob.size);
          resolve(`"etag-${part}"`);
        }
      });
      return { promise, abort };
    }),
    complete: vi.fn(async (id: number) => ({ attachment: { id } as Attachment, url: '/x' })),
    abort: vi.fn(async () => ({ deleted: true as const })),
  };
  return { transport: transport as ResumableTransport & typeof transport, held };
}

function queueWith(resumable: ResumableTransport, store: UploadTransport['saved']) {
  const sleep = vi.fn(async () => {});
  const transport = {
    createPostUrl: vi.fn(),
    uploadToStorage: vi.fn(),
    confirmUpload: vi.fn(),
    resumable,
    saved: store,
    sleep,
  } as unknown as UploadTransport;
  const onUploaded = vi.fn();
  const hook = renderHook(() => useUploadQueue({ caseId: 9, onUploaded, transport }));
  return { ...hook, onUploaded, sleep, transport };
}

const KEY = uploadKey(9, 'exams.upperJawStl', scan());

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview') }));
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('upload queue, resumable uploads (exams, planning)', () => {
  it('sends a scan in parts with the bytes sent, completes and leaves the queue', async () => {
    const { transport, held } = fakeResumable(['hold', 'hold', 'hold']);
    const { store, saved } = memoryStore();
    const { result, onUploaded } = queueWith(transport, store);
    act(() => result.current.add([{ file: scan(), attachmentName: 'exams.upperJawStl' }]));
    await waitFor(() => expect(held).toHaveLength(3));
    // One call signs the URLs of the three parts.
    expect(transport.partUrls.mock.calls).toEqual([[70, [1, 2, 3]]]);
    expect(transport.start).toHaveBeenCalledWith(9, {
      filename: 'upper.stl',
      filesize: 10,
      attachment_name: 'exams.upperJawStl',
    });
    // Half of each part is in flight: 2 + 2 + 1 of 10 bytes.
    expect(result.current.items[0]).toMatchObject({ sent: 5, percent: 50, state: 'uploading' });
    // Each part's ETag is kept as soon as it is in, for a resume after a reload.
    await act(async () => held[0]!.resolve());
    expect(saved.get(KEY)?.etags).toEqual({ 1: '"etag-1"' });
    await act(async () => {
      held[1]!.resolve();
      held[2]!.resolve();
    });
    await waitFor(() => expect(result.current.items).toHaveLength(0));
    expect(transport.complete).toHaveBeenCalledWith(70, [
      { partNumber: 1, etag: '"etag-1"' },
      { partNumber: 2, etag: '"etag-2"' },
      { partNumber: 3, etag: '"etag-3"' },
    ]);
    expect(saved.has(KEY)).toBe(false);
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });

  it('after a network drop the part is tried again after a pause, showing it', async () => {
    const { transport } = fakeResumable(['fail', 'fail']);
    const { store } = memoryStore();
    const { result, sleep, onUploaded } = queueWith(transport, store);
    const pauses: (() => void)[] = [];
    sleep.mockImplementation(() => new Promise<void>((resolve) => pauses.push(resolve)));
    act(() => result.current.add([{ file: scan(), attachmentName: 'exams.upperJawStl' }]));
    await waitFor(() => expect(result.current.items[0]?.retrying).toBe(true));
    expect(sleep).toHaveBeenCalledWith(1000, expect.any(AbortSignal));
    // Parts 1 and 2 failed once each (both pause); part 3 went through.
    await waitFor(() => expect(pauses).toHaveLength(2));
    await act(async () => pauses.forEach((resume) => resume()));
    await waitFor(() => expect(onUploaded).toHaveBeenCalled());
    // Two failed tries, then the three parts; each part tried again asked for a fresh URL.
    expect(result.current.items).toHaveLength(0);
    expect(transport.sendPart).toHaveBeenCalledTimes(5);
    expect(transport.partUrls.mock.calls.map(([, parts]) => parts)).toEqual([[1, 2, 3], [1], [2]]);
    expect(transport.complete).toHaveBeenCalledTimes(1);
  });

  it('the same file chosen again after a reload resumes: only the missing parts go', async () => {
    const { transport, held } = fakeResumable(['hold']);
    const { store } = memoryStore({
      [KEY]: { attachmentId: 55, plan: PLAN, etags: { 1: '"a"', 3: '"c"' } },
    });
    const { result, onUploaded } = queueWith(transport, store);
    act(() => result.current.add([{ file: scan(), attachmentName: 'exams.upperJawStl' }]));
    await waitFor(() => expect(held).toHaveLength(1));
    // Parts 1 and 3 (6 of 10 bytes) are in; half of part 2 is on its way.
    expect(result.current.items[0]).toMatchObject({ resumed: true, sent: 8 });
    await act(async () => held[0]!.resolve());
    await waitFor(() => expect(onUploaded).toHaveBeenCalled());
    expect(transport.start).not.toHaveBeenCalled();
    expect(transport.sendPart.mock.calls.map(([url]) => url)).toEqual(['/part/2']);
    expect(transport.complete).toHaveBeenCalledWith(55, [
      { partNumber: 1, etag: '"a"' },
      { partNumber: 2, etag: '"etag-2"' },
      { partNumber: 3, etag: '"c"' },
    ]);
  });

  it('a kept upload the server no longer has starts again from the first part', async () => {
    const { transport } = fakeResumable();
    const { ApiError } = await import('../../../lib/api-client');
    transport.partUrls.mockRejectedValueOnce(new ApiError('gone', 'NOT_FOUND', 404));
    const { store } = memoryStore({
      [KEY]: { attachmentId: 55, plan: PLAN, etags: { 1: '"a"' } },
    });
    const { result, onUploaded } = queueWith(transport, store);
    act(() => result.current.add([{ file: scan(), attachmentName: 'exams.upperJawStl' }]));
    await waitFor(() => expect(onUploaded).toHaveBeenCalled());
    expect(transport.start).toHaveBeenCalledTimes(1);
    expect(transport.sendPart).toHaveBeenCalledTimes(3);
    expect(transport.complete.mock.calls[0]![0]).toBe(70);
  });

  it('cancel stops the parts, drops the upload on the server and forgets it', async () => {
    const { transport, held } = fakeResumable(['hold', 'hold', 'hold']);
    const { store, saved } = memoryStore();
    const { result } = queueWith(transport, store);
    act(() => result.current.add([{ file: scan(), attachmentName: 'exams.upperJawStl' }]));
    await waitFor(() => expect(held).toHaveLength(3));
    expect(saved.has(KEY)).toBe(true);
    act(() => result.current.cancel(result.current.items[0]!.key));
    expect(result.current.items).toHaveLength(0);
    await waitFor(() => expect(transport.abort).toHaveBeenCalledWith(70));
    expect(saved.has(KEY)).toBe(false);
    expect(transport.complete).not.toHaveBeenCalled();
  });

  it('a chosen image shows its preview while it uploads; a scan has none', () => {
    const { transport } = fakeResumable(['hold', 'hold', 'hold']);
    const { result } = queueWith(transport, memoryStore().store);
    const photo = new File(['x'], 'smile.jpg', { type: 'image/jpeg' });
    act(() =>
      result.current.add([
        { file: photo, attachmentName: 'exams.generic' },
        { file: scan(), attachmentName: 'exams.upperJawStl' },
      ]),
    );
    expect(result.current.items.map((item) => item.previewUrl)).toEqual([
      'blob:preview',
      undefined,
    ]);
    expect(URL.createObjectURL).toHaveBeenCalledWith(photo);
  });
});
