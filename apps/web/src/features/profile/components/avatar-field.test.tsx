import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserProfile } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { profileQueryKey } from '../api/get-profile';
import { AvatarField } from './avatar-field';

class FakeXhr {
  static instances: FakeXhr[] = [];
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.instances.push(this);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const input = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const user = () => userEvent.setup({ applyAccept: false });

function renderField(profile: UserProfile) {
  const view = renderWithApp(<AvatarField profile={profile} />);
  view.queryClient.setQueryData(profileQueryKey, profile);
  return view;
}

describe('avatar field', () => {
  beforeEach(() => {
    applyLanguage('en');
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    FakeXhr.instances = [];
    vi.unstubAllGlobals();
  });

  it('sends a JPG as a multipart form and shows the new avatar in the cached profile', async () => {
    mockFetch(() => ok({}));
    const { queryClient } = renderField(completeProfile());
    await user().upload(input(), new File(['jpg'], 'me.jpg', { type: 'image/jpeg' }));
    const xhr = FakeXhr.instances[0]!;
    expect(xhr.url).toBe('/api/v1/profile/avatar');
    expect((xhr.body!.get('file') as File).name).toBe('me.jpg');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
    expect(await screen.findByText('Sending… 50%')).toBeInTheDocument();
    xhr.respond(200, { obj: { avatar: '/api/v1/profile/avatar/7/abc' } });
    expect(await screen.findByText('Profile picture updated.')).toBeInTheDocument();
    expect(queryClient.getQueryData<UserProfile>(profileQueryKey)?.dataGeneral.avatar).toBe(
      '/api/v1/profile/avatar/7/abc',
    );
  });

  it.each([
    [
      'a PDF',
      new File(['%PDF'], 'me.pdf', { type: 'application/pdf' }),
      'The picture must be a JPG, GIF or PNG file.',
    ],
    [
      'a WebP',
      new File(['x'], 'me.webp', { type: 'image/webp' }),
      'The picture must be a JPG, GIF or PNG file.',
    ],
    [
      'a PNG over 800 kB',
      new File([new Uint8Array(800 * 1024 + 1)], 'big.png', { type: 'image/png' }),
      'The picture must be at most 800 kB.',
    ],
  ])('refuses %s before sending it', async (_name, file, message) => {
    mockFetch(() => ok({}));
    renderField(completeProfile());
    await user().upload(input(), file);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(FakeXhr.instances).toEqual([]);
  });

  it('shows the server refusal', async () => {
    mockFetch(() => ok({}));
    renderField(completeProfile());
    await user().upload(input(), new File(['gif'], 'me.gif', { type: 'image/gif' }));
    FakeXhr.instances[0]!.respond(415, {
      error: 'This type of file is not accepted',
      code: 'FILE_TYPE_NOT_ALLOWED',
    });
    expect(await screen.findByText('This type of file is not accepted')).toBeInTheDocument();
  });

  it('shows the removal control only to admins', async () => {
    const { calls } = mockFetch(() => ok({ avatar: null }));
    const avatar = '/api/v1/profile/avatar/7/abc';
    const withAvatar = (roles: string[]) =>
      completeProfile({ roles, dataGeneral: { ...completeProfile().dataGeneral, avatar } });

    const doctor = renderField(withAvatar(['doctor', 'public']));
    expect(screen.queryByRole('button', { name: 'Remove picture' })).not.toBeInTheDocument();
    doctor.unmount();

    const { queryClient } = renderField(withAvatar(['admin', 'public']));
    await userEvent.click(screen.getByRole('button', { name: 'Remove picture' }));
    await waitFor(() =>
      expect(queryClient.getQueryData<UserProfile>(profileQueryKey)?.dataGeneral.avatar).toBe(null),
    );
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['DELETE /users/7/avatar']);
  });
});
