import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiUpload, clearSession, storeSession } from './api-client';
import { applyLanguage } from './i18n';
import { mockFetch, ok } from '../test/fetch-mock';
import { completeProfile } from '../test/profiles';

/** Stands in for the browser's XMLHttpRequest: records each request, answers when told to. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  withCredentials = false;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.onprogress?.({ lengthComputable, loaded, total });
  }
  respond(status: number, body: string | object) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

const session = (n: number) => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  profile: completeProfile(),
});

/** The n-th request sent, once it is sent (a retry waits for the refresh first). */
async function sentRequest(n: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
  return FakeXhr.sent[n]!;
}

function form(): FormData {
  const data = new FormData();
  data.append('justification', 'Paid by Pix');
  data.append('file', new File(['%PDF'], 'receipt.pdf', { type: 'application/pdf' }));
  return data;
}

describe('apiUpload (multipart with progress)', () => {
  beforeEach(async () => {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    clearSession();
    await applyLanguage('en');
  });
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
  });

  it('posts the form with the bearer token and language, reports progress and answers obj', async () => {
    storeSession(session(1));
    await applyLanguage('es');
    const onProgress = vi.fn();
    const body = form();
    const answer = apiUpload('/profile/avatar', body, { onProgress });

    const request = await sentRequest(0);
    expect(request).toMatchObject({
      method: 'POST',
      url: '/api/v1/profile/avatar',
      withCredentials: true,
      headers: {
        Accept: 'application/json',
        'Accept-Language': 'es-ES',
        Authorization: 'Bearer access-1',
      },
    });
    expect(request.body).toBe(body);

    request.progress(1, 3);
    request.progress(3, 3);
    request.progress(5, 0); // no total known yet: nothing to report
    request.progress(1, 2, false);
    expect(onProgress.mock.calls).toEqual([[33], [100]]);

    request.respond(200, { obj: { avatar: '/api/v1/profile/avatar/7/abc' } });
    await expect(answer).resolves.toEqual({ avatar: '/api/v1/profile/avatar/7/abc' });
  });

  it.each([
    {
      name: 'the error envelope, with its code and fields',
      status: 400,
      body: {
        error: 'Validation error, check required fields',
        code: 'VALIDATION_ERROR',
        fields: { justification: 'Enter a description' },
      },
      expected: {
        message: 'Validation error, check required fields',
        code: 'VALIDATION_ERROR',
        status: 400,
        fields: { justification: 'Enter a description' },
      },
    },
    {
      name: 'an envelope without a code',
      status: 415,
      body: { error: 'This type of file is not accepted' },
      expected: { message: 'This type of file is not accepted', code: 'ERROR', status: 415 },
    },
    {
      name: 'a page that is not the API (a proxy)',
      status: 502,
      body: '<html>Bad gateway</html>',
      expected: {
        message: 'Something went wrong. Please try again.',
        code: 'HTTP_ERROR',
        status: 502,
      },
    },
    {
      name: 'a success without obj',
      status: 200,
      body: { ok: true },
      expected: { code: 'HTTP_ERROR', status: 200 },
    },
  ])('maps $name to an ApiError', async ({ status, body, expected }) => {
    const answer = apiUpload('/profile/avatar', form());
    (await sentRequest(0)).respond(status, body);
    const error: unknown = await answer.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ fields: {}, ...expected });
  });

  it('rejects a network failure as NETWORK_ERROR', async () => {
    const answer = apiUpload('/profile/avatar', form());
    (await sentRequest(0)).onerror?.();
    await expect(answer).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('refreshes the session once on a 401 and sends the form again from 0%', async () => {
    storeSession(session(1));
    const { calls } = mockFetch(() => ok(session(2)));
    const onProgress = vi.fn();
    const body = form();
    const answer = apiUpload('/case/transaction/501/submitReceipt', body, { onProgress });

    const first = await sentRequest(0);
    first.progress(1, 1);
    first.respond(401, { error: 'not authorized', code: 'NOT_AUTHORIZED' });

    const second = await sentRequest(1);
    expect(calls.map((call) => call.path)).toEqual(['/auth/refresh_token']);
    expect(second.headers.Authorization).toBe('Bearer access-2');
    expect(second.body).toBe(body);
    expect(onProgress.mock.calls).toEqual([[100], [0]]);
    second.respond(200, { obj: { id: 501 } });
    await expect(answer).resolves.toEqual({ id: 501 });
  });

  it('stops the request when its signal aborts, and sends nothing once aborted', async () => {
    const controller = new AbortController();
    const answer = apiUpload('/profile/avatar', form(), { signal: controller.signal });
    const request = await sentRequest(0);
    controller.abort();
    expect(request.aborted).toBe(true);
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });

    await expect(
      apiUpload('/profile/avatar', form(), { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.sent).toHaveLength(1);
  });
});
