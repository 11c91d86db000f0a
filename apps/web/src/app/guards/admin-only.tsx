import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { isAdmin, sessionRoles } from '@dentflow/domain';
import { useProfile } from '../../features/profile/api/get-profile';

/**
 * Admin screens (products, coupons, settings): others get the not-authorized page, as the server
 * refuses them too. Nothing inside mounts (so no admin call is sent) until the profile says admin;
 * a profile that cannot be read counts as not admin.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { data: profile, isLoading } = useProfile();
  if (!profile) {
    if (!isLoading) return <Navigate to="/error/not-authorized" replace />;
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (!isAdmin(sessionRoles(profile.roles))) return <Navigate to="/error/not-authorized" replace />;
  return children;
}
