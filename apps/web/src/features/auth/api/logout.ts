import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, clearSession } from '../../../lib/api-client';
import { getRefreshToken } from '../../../lib/session-storage';

/** Revokes the refresh token on the server; the local session is forgotten even if that fails. */
export async function logout(): Promise<void> {
  const refreshToken = getRefreshToken();
  try {
    if (refreshToken) await api.delete('/auth/logout', { refresh_token: refreshToken });
  } finally {
    clearSession();
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    // Leave the main layout first: clearing the cache while its queries are still observed
    // would refetch them without a session.
    onSettled: async () => {
      await navigate('/login', { replace: true });
      queryClient.clear();
    },
  });
}
