import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { isAdmin, sessionRoles } from '@dentflow/domain';
import { useProfile } from '../../profile/api/get-profile';

/**
 * Admin screens (products, settings): others get the not-authorized page, as the server refuses
 * them too. Nothing inside mounts (so no admin call is sent) until the profile says admin.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { data: profile } = useProfile();
  if (!profile) {
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (!isAdmin(sessionRoles(profile.roles))) return <Navigate to="/error/not-authorized" replace />;
  return children;
}
