import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { nickNameSchema } from '@dentflow/domain';
import { api } from './api-client';

/** Works without a token (register form); with one, the caller's own nickname counts as available. */
export const verifyNickname = (nickname: string) =>
  api.post<{ available: boolean }>('/profile/verifyNickname', { nickname });

export type NicknameStatus = 'idle' | 'invalid' | 'checking' | 'available' | 'taken' | 'unknown';

const NICKNAME_DEBOUNCE_MS = 400;

/**
 * The live nickname check: the format is checked locally with the domain rule, then (debounced)
 * the server says whether it is free. `unchangedValue` (the user's current nickname) is not asked.
 */
export function useNicknameAvailability(nickname: string, unchangedValue?: string): NicknameStatus {
  const trimmed = nickname.trim();
  const [debounced] = useDebouncedValue(trimmed, NICKNAME_DEBOUNCE_MS);
  const wellFormed = trimmed !== '' && nickNameSchema.safeParse(trimmed).success;
  const unchanged =
    unchangedValue !== undefined && trimmed.toLowerCase() === unchangedValue.trim().toLowerCase();
  const enabled = wellFormed && !unchanged && debounced === trimmed;
  const query = useQuery({
    queryKey: ['nickname', debounced.toLowerCase()],
    queryFn: () => verifyNickname(debounced),
    enabled,
    staleTime: 10_000,
    retry: false,
  });
  if (trimmed === '') return 'idle';
  if (!wellFormed) return 'invalid';
  if (unchanged) return 'available';
  if (debounced !== trimmed || query.isFetching) return 'checking';
  if (query.isError) return 'unknown';
  if (query.data) return query.data.available ? 'available' : 'taken';
  return 'checking';
}
