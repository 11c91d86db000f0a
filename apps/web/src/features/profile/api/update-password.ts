import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface UpdatePasswordInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const updatePassword = (input: UpdatePasswordInput) =>
  api.post<{ updated: boolean }>('/profile/updatePassword', input);

export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
