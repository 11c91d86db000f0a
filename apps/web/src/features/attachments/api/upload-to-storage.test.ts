import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadAbortedError, UploadFailedError, uploadToStorage } from './upload-to-storage';

class FakeXhr {
  static instances: FakeXhr[] = [];
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  method = '';
  url = '';
  body: FormData | null = null;
  headers: Record<string, string> = {};
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.instances.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number) {
    this.status = status;
    this.onload?.();
  }
}

const upload = {
  url: 'https://store.example/bucket',
  fields: { key: 'cases/1/abc', policy: 'p', 'x-amz-signature': 's', 'Content-Type': 'image/png' },
};

describe('uploadToStorage (presigned POST with progress)', () => {
  afterEach(() => {
    FakeXhr.instances = [];
    vi.unstubAllGlobals();
  });

  it('posts the policy fields first and the file last, without the bearer token', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const file = new File(['hello'], 'smile.png', { type: 'image/png' });
    const percents: number[] = [];
    const sending = uploadToStorage(upload, file, (percent) => percents.push(percent));
    const xhr = FakeXhr.instances[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(upload.url);
    expect([...xhr.body!.keys()]).toEqual([...Object.keys(upload.fields), 'file']);
    expect(xhr.body!.get('key')).toBe('cases/1/abc');
    expect((xhr.body!.get('file') as File).name).toBe('smile.png');
    expect(Object.keys(xhr.headers)).not.toContain('Authorization');

    xhr.progress(25, 100);
    xhr.progress(999, 1000);
    xhr.respond(204);
    await sending.promise;
    expect(percents).toEqual([25, 99, 100]);
  });

  it('fails with the store status and can be aborted', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const refused = uploadToStorage(upload, new Blob(['x']), () => {});
    FakeXhr.instances[0]!.respond(403);
    await expect(refused.promise).rejects.toEqual(new UploadFailedError(403));

    const cancelled = uploadToStorage(upload, new Blob(['x']), () => {});
    cancelled.abort();
    await expect(cancelled.promise).rejects.toBeInstanceOf(UploadAbortedError);
  });
});
