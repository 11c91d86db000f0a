import { API_BASE, getAccessToken, readEnvelope, refreshSession } from './api-client';

/** The filename the server names, else `fallback`. */
const filenameOf = (response: Response, fallback: string) =>
  /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;

/**
 * Saves a file an API route answers (not the API's envelope): fetched with the bearer token (one
 * refresh on a 401, like every API call), errors read from the envelope. Answers the filename.
 */
export async function downloadApiFile(path: string, fallbackName: string): Promise<string> {
  const get = (token: string | null) =>
    fetch(`${API_BASE}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  let response = await get(getAccessToken());
  if (response.status === 401) response = await get((await refreshSession()).accessToken);
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => undefined);
    readEnvelope(response.status, payload);
  }
  const filename = filenameOf(response, fallbackName);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click the browser holds the file; the next tick frees the blob.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return filename;
}
