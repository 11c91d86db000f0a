import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Center, Loader } from '@mantine/core';
import {
  isAdmin,
  isClinic,
  isInstructor,
  isSupervisor,
  sessionRoles,
  type SessionRole,
} from '@dentflow/domain';
import { useProfile } from '../../features/profile/api/get-profile';

/**
 * A screen for some roles only: others get the not-authorized page, as the server refuses them
 * too. Nothing inside mounts (so no call is sent) until the profile says the role; a profile that
 * cannot be read counts as not having it.
 */
function RoleOnly({
  allowed,
  children,
}: {
  allowed: (roles: readonly SessionRole[]) => boolean;
  children: ReactNode;
}) {
  const { data: profile, isLoading } = useProfile();
  if (!profile) {
    if (!isLoading) return <Navigate to="/error/not-authorized" replace />;
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  }
  if (!allowed(sessionRoles(profile.roles))) return <Navigate to="/error/not-authorized" replace />;
  return children;
}

/** Admin screens: products, coupons, settings. */
export const AdminOnly = ({ children }: { children: ReactNode }) => (
  <RoleOnly allowed={isAdmin}>{children}</RoleOnly>
);

/** Supervisor screens (admins count as supervisors): the payments queue. */
export const SupervisorOnly = ({ children }: { children: ReactNode }) => (
  <RoleOnly allowed={isSupervisor}>{children}</RoleOnly>
);

/** Instructor screens (admins count as instructors): the students. */
export const InstructorOnly = ({ children }: { children: ReactNode }) => (
  <RoleOnly allowed={isInstructor}>{children}</RoleOnly>
);

/** Clinic screens (admins count as clinics): the partners linked to a clinic. */
export const ClinicOnly = ({ children }: { children: ReactNode }) => (
  <RoleOnly allowed={isClinic}>{children}</RoleOnly>
);
