import { useMutation, useQueryClient } from '@tanstack/react-query';
import { languageTag, type UserProfile } from '@dentflow/domain';
import {
  API_BASE,
  ApiError,
  envelopeCode,
  getAccessToken,
  refreshSession,
} from '../../../lib/api-client';
import { currentLanguage, i18n } from '../../../lib/i18n';
import { profileQueryKey, rememberProfile } from './get-profile';

interface XhrAnswer {
  status: number;
  text: string;
}

function post(file: File, token: string | null, onProgress: (percent: number) => void) {
  return new Promise<XhrAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/profile/avatar`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', languageTag(currentLanguage()));
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.min(100, Math.floor((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(i18n.t('feedback.networkError'), 'NETWORK_ERROR', 0));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

function unwrap(answer: XhrAnswer): { avatar: string } {
  let payload: unknown;
  try {
    payload = JSON.parse(answer.text);
  } catch {
    payload = undefined;
  }
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const { error, code } = payload as { error: unknown; code?: unknown };
    throw new ApiError(String(error), envelopeCode(code), answer.status);
  }
  const obj = (payload as { obj?: { avatar?: unknown } } | undefined)?.obj;
  if (answer.status >= 300 || typeof obj?.avatar !== 'string') {
    throw new ApiError(i18n.t('feedback.unexpectedError'), 'HTTP_ERROR', answer.status);
  }
  return { avatar: obj.avatar };
}

/**
 * `POST /profile/avatar`, multipart with the `file` (the server makes the square thumbnail). Not
 * through the JSON client: a form with upload progress; same bearer and one refresh on 401.
 */
export async function uploadAvatar(
  file: File,
  onProgress: (percent: number) => void = () => {},
): Promise<{ avatar: string }> {
  let answer = await post(file, getAccessToken(), onProgress);
  if (answer.status === 401) {
    const session = await refreshSession();
    answer = await post(file, session.accessToken, onProgress);
  }
  return unwrap(answer);
}

/** Keeps the new avatar in the cached profile (the user menu shows it at once). */
export function rememberAvatar(
  queryClient: ReturnType<typeof useQueryClient>,
  avatar: string | null,
) {
  const profile = queryClient.getQueryData<UserProfile>(profileQueryKey);
  if (profile)
    rememberProfile(queryClient, { ...profile, dataGeneral: { ...profile.dataGeneral, avatar } });
}

export function useUploadAvatar(onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadAvatar(file, onProgress),
    onSuccess: ({ avatar }) => rememberAvatar(queryClient, avatar),
  });
}
