/** The storage key of an avatar from its public URL, or null when the URL is not one of ours. */
export const avatarKeyOf = (url: string | null | undefined) => {
  const match = url?.match(/^\/api\/v1\/profile\/avatar\/(\d+)\/([a-f0-9]{32})$/);
  return match ? `avatars/${match[1]}/${match[2]}` : null;
};
