import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { isSupervisor, sessionRoles } from '@dentflow/domain';
import { useProfile } from '../../features/profile/api/get-profile';

/**
 * Supervisor screens (the payments queue; admins count as supervisors): others get the
 * not-authorized page, as the server refuses them too. Nothing inside mounts (so no call is sent)
 * until the profile says supervisor; a profile that cannot be read counts as not supervisor.
 */
export function SupervisorOnly({ children }: { children: ReactNode }) {
  const { data: profile, isLoading } = useProfile();
  if (!profile) {
    if (!isLoading) return <Navigate to="/error/not-authorized" replace />;
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (!isSupervisor(sessionRoles(profile.roles))) {
    return <Navigate to="/error/not-authorized" replace />;
  }
  return children;
}
