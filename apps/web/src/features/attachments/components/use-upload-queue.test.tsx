import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { Attachment } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { UploadAbortedError, UploadFailedError } from '../api/upload-to-storage';
import { useUploadQueue, type UploadTransport } from './use-upload-queue';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const attachment = (id: number) => ({ id }) as Attachment;

/** A transport whose store upload the test drives by hand: progress, finish, fail. */
function fakeTransport() {
  const sends: {
    progress: (percent: number) => void;
    done: ReturnType<typeof deferred<void>>;
    abort: ReturnType<typeof vi.fn>;
  }[] = [];
  let nextId = 40;
  const transport = {
    createPostUrl: vi.fn(async (_caseId: number, _body: object) => ({
      attachment: attachment(++nextId),
      upload: { url: '/store', fields: {} },
    })),
    uploadToStorage: vi.fn((_upload, _file, onProgress: (percent: number) => void) => {
      const done = deferred<void>();
      const abort = vi.fn(() => done.reject(new UploadAbortedError()));
      sends.push({ progress: onProgress, done, abort });
      return { promise: done.promise, abort };
    }),
    confirmUpload: vi.fn(async (id: number) => ({ attachment: attachment(id), url: '/x' })),
  };
  return { transport: transport as unknown as UploadTransport & typeof transport, sends };
}

const photo = (name = 'smile.jpg') => new File(['x'.repeat(10)], name, { type: 'image/jpeg' });

describe('upload queue', () => {
  it('sends each file: createPostUrl, progress 0-100, confirm, then leaves the queue', async () => {
    const { transport, sends } = fakeTransport();
    const onUploaded = vi.fn();
    const { result } = renderHook(() => useUploadQueue({ caseId: 9, onUploaded, transport }));

    act(() =>
      result.current.add([
        { file: photo('a.jpg'), attachmentName: 'photoProtocol.forcedSmile', slotId: 3 },
        { file: photo('b.jpg'), attachmentName: 'photoProtocol.generic' },
      ]),
    );
    expect(result.current.items.map((item) => [item.file.name, item.percent, item.state])).toEqual([
      ['a.jpg', 0, 'uploading'],
      ['b.jpg', 0, 'uploading'],
    ]);
    expect(result.current.busy).toBe(true);
    await waitFor(() => expect(sends).toHaveLength(2));
    expect(transport.createPostUrl).toHaveBeenCalledWith(9, {
      id: 3,
      filename: 'a.jpg',
      filesize: 10,
      attachment_name: 'photoProtocol.forcedSmile',
    });
    expect(transport.createPostUrl.mock.calls[1]![1]).not.toHaveProperty('id');

    act(() => sends[0]!.progress(42));
    expect(result.current.items[0]!.percent).toBe(42);

    await act(async () => sends[0]!.done.resolve());
    await waitFor(() =>
      expect(result.current.items.map((item) => item.file.name)).toEqual(['b.jpg']),
    );
    expect(transport.confirmUpload).toHaveBeenCalledWith(41);
    expect(onUploaded).toHaveBeenCalledTimes(1);

    await act(async () => sends[1]!.done.resolve());
    await waitFor(() => expect(result.current.items).toEqual([]));
    expect(result.current.busy).toBe(false);
    expect(onUploaded).toHaveBeenCalledTimes(2);
  });

  it('cancel aborts the transfer, drops the file and confirms nothing', async () => {
    const { transport, sends } = fakeTransport();
    const onUploaded = vi.fn();
    const { result } = renderHook(() => useUploadQueue({ caseId: 9, onUploaded, transport }));
    act(() => result.current.add([{ file: photo(), attachmentName: 'photoProtocol.generic' }]));
    await waitFor(() => expect(sends).toHaveLength(1));
    act(() => sends[0]!.progress(30));

    await act(async () => result.current.cancel(result.current.items[0]!.key));
    expect(sends[0]!.abort).toHaveBeenCalled();
    expect(result.current.items).toEqual([]);
    expect(result.current.busy).toBe(false);
    expect(transport.confirmUpload).not.toHaveBeenCalled();
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('a failed transfer shows the error and a retry sends the file again', async () => {
    const { transport, sends } = fakeTransport();
    const onUploaded = vi.fn();
    const { result } = renderHook(() => useUploadQueue({ caseId: 9, onUploaded, transport }));
    act(() => result.current.add([{ file: photo(), attachmentName: 'photoProtocol.generic' }]));
    await waitFor(() => expect(sends).toHaveLength(1));

    await act(async () => sends[0]!.done.reject(new UploadFailedError(0)));
    await waitFor(() => expect(result.current.items[0]!.state).toBe('error'));
    // A network failure has no server reason: the common upload error is shown alone.
    expect(result.current.items[0]!.errorDetail).toBeUndefined();
    expect(result.current.busy).toBe(false);

    act(() => result.current.retry(result.current.items[0]!.key));
    expect(result.current.items[0]).toMatchObject({ state: 'uploading', percent: 0 });
    await waitFor(() => expect(sends).toHaveLength(2));
    expect(transport.createPostUrl).toHaveBeenCalledTimes(2);
    await act(async () => sends[1]!.done.resolve());
    await waitFor(() => expect(result.current.items).toEqual([]));
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });

  it('keeps the server reason of a refused file (type, size, failed check)', async () => {
    const { transport } = fakeTransport();
    transport.createPostUrl.mockRejectedValueOnce(
      new ApiError('This type of file is not accepted', 'FILE_TYPE_NOT_ALLOWED', 400),
    );
    const { result } = renderHook(() =>
      useUploadQueue({ caseId: 9, onUploaded: () => {}, transport }),
    );
    act(() => result.current.add([{ file: photo(), attachmentName: 'photoProtocol.generic' }]));
    await waitFor(() => expect(result.current.items[0]!.state).toBe('error'));
    expect(result.current.items[0]!.errorDetail).toBe('This type of file is not accepted');
    expect(transport.uploadToStorage).not.toHaveBeenCalled();

    act(() => result.current.dismiss(result.current.items[0]!.key));
    expect(result.current.items).toEqual([]);
  });

  it('a failed confirmation (content check) is an error too', async () => {
    const { transport, sends } = fakeTransport();
    transport.confirmUpload.mockRejectedValueOnce(
      new ApiError('The file does not match its type', 'FILE_CONTENT_MISMATCH', 422),
    );
    const onUploaded = vi.fn();
    const { result } = renderHook(() => useUploadQueue({ caseId: 9, onUploaded, transport }));
    act(() => result.current.add([{ file: photo(), attachmentName: 'photoProtocol.generic' }]));
    await waitFor(() => expect(sends).toHaveLength(1));
    await act(async () => sends[0]!.done.resolve());
    await waitFor(() => expect(result.current.items[0]!.state).toBe('error'));
    expect(result.current.items[0]!.errorDetail).toBe('The file does not match its type');
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('leaving (unmount) aborts what is still being sent', async () => {
    const { transport, sends } = fakeTransport();
    const { result, unmount } = renderHook(() =>
      useUploadQueue({ caseId: 9, onUploaded: () => {}, transport }),
    );
    act(() => result.current.add([{ file: photo(), attachmentName: 'photoProtocol.generic' }]));
    await waitFor(() => expect(sends).toHaveLength(1));
    unmount();
    expect(sends[0]!.abort).toHaveBeenCalled();
  });
});
