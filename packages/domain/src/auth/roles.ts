import { isOneOf } from '../common/one-of';
/** Roles and the permission predicates, exactly as written. */
export const ROLES = [
  'admin',
  'supervisor',
  'planner',
  'printer',
  'clinic',
  'doctor',
  'partner',
  'instructor',
] as const;
export type Role = (typeof ROLES)[number];
/** Added to every logged-in user after login or refresh. */
export const PUBLIC_ROLE = 'public';
export type SessionRole = Role | typeof PUBLIC_ROLE;

type Roles = readonly string[];
const has = (roles: Roles, ...wanted: string[]) => wanted.some((r) => roles.includes(r));

export const isAdmin = (roles: Roles) => has(roles, 'admin');
export const isSupervisor = (roles: Roles) => has(roles, 'admin', 'supervisor');
export const isPlanner = (roles: Roles) => has(roles, 'admin', 'supervisor', 'planner');
export const isClinic = (roles: Roles) => has(roles, 'admin', 'clinic');
export const isDoctor = (roles: Roles) => has(roles, 'admin', 'clinic', 'doctor');
export const isPrinter = (roles: Roles) => has(roles, 'admin', 'printer');
export const isPartner = (roles: Roles) => has(roles, 'admin', 'partner');
export const isInstructor = (roles: Roles) => has(roles, 'admin', 'instructor');
/** Exactly clinic or doctor, with no admin shortcut. */
export const isClinicOrDoctorOnly = (roles: Roles) => has(roles, 'clinic', 'doctor');
/** Every main route carries the public rule. */
export const isPublic = (roles: Roles) => has(roles, PUBLIC_ROLE);

/** The roles a session carries: the stored roles plus 'public', without duplicates. */
export function sessionRoles(roles: Roles): SessionRole[] {
  const known = roles.filter((r): r is Role => isOneOf(ROLES, r));
  return [...new Set<SessionRole>([...known, PUBLIC_ROLE])];
}
