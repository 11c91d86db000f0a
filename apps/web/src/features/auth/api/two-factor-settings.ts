import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AuthenticatorSecret } from './two-factor-login';

export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
  rememberedDevices: number;
}

const statusKey = ['twoFactor', 'status'] as const;

export const useTwoFactorStatus = () =>
  useQuery({
    queryKey: statusKey,
    queryFn: () => api.get<TwoFactorStatus>('/profile/twoFactor/get'),
  });

export const newAuthenticatorSecret = () =>
  api.post<AuthenticatorSecret>('/profile/twoFactor/setup', {});

/** Each change answers fresh data for the Security tab: the status is read again after it. */
function useTwoFactorChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statusKey }),
  });
}

export const useEnableTwoFactor = () =>
  useTwoFactorChange((code: string) =>
    api.post<{ recoveryCodes: string[] }>('/profile/twoFactor/enable', { code }),
  );

export const useDisableTwoFactor = () =>
  useTwoFactorChange((input: { password: string; code: string }) =>
    api.post<{ disabled: true }>('/profile/twoFactor/disable', input),
  );

export const useRegenerateRecoveryCodes = () =>
  useTwoFactorChange((code: string) =>
    api.post<{ recoveryCodes: string[] }>('/profile/twoFactor/recoveryCodes', { code }),
  );
