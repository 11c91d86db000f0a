import { describe, expect, it } from 'vitest';
import {
  isAdmin,
  isClinic,
  isClinicOrDoctorOnly,
  isDoctor,
  isPartner,
  isPlanner,
  isPrinter,
  isPublic,
  isSupervisor,
  ROLES,
  sessionRoles,
} from './roles';

// One row per role held alone: which predicates pass.
const TABLE = [
  // role,       admin, supervisor, planner, clinic, doctor, printer, partner, clinicOrDoctorOnly
  ['admin', true, true, true, true, true, true, true, false],
  ['supervisor', false, true, true, false, false, false, false, false],
  ['planner', false, false, true, false, false, false, false, false],
  ['printer', false, false, false, false, false, true, false, false],
  ['clinic', false, false, false, true, true, false, false, true],
  ['doctor', false, false, false, false, true, false, false, true],
  ['partner', false, false, false, false, false, false, true, false],
  ['instructor', false, false, false, false, false, false, false, false],
  ['public', false, false, false, false, false, false, false, false],
] as const;

describe('role predicates', () => {
  it.each(TABLE)(
    '%s',
    (role, admin, supervisor, planner, clinic, doctor, printer, partner, clinicOrDoctorOnly) => {
      const roles = [role];
      expect(isAdmin(roles)).toBe(admin);
      expect(isSupervisor(roles)).toBe(supervisor);
      expect(isPlanner(roles)).toBe(planner);
      expect(isClinic(roles)).toBe(clinic);
      expect(isDoctor(roles)).toBe(doctor);
      expect(isPrinter(roles)).toBe(printer);
      expect(isPartner(roles)).toBe(partner);
      expect(isClinicOrDoctorOnly(roles)).toBe(clinicOrDoctorOnly);
    },
  );

  it('no roles pass nothing', () => {
    expect(
      [isAdmin, isSupervisor, isPlanner, isDoctor, isClinicOrDoctorOnly].some((p) => p([])),
    ).toBe(false);
  });

  it('admin with clinic passes clinic-and-doctor-only through clinic, not through admin', () => {
    expect(isClinicOrDoctorOnly(['admin', 'clinic'])).toBe(true);
    expect(isClinicOrDoctorOnly(['admin'])).toBe(false);
  });
});

describe('sessionRoles', () => {
  it('adds public once and drops unknown roles', () => {
    expect(sessionRoles(['doctor'])).toEqual(['doctor', 'public']);
    expect(sessionRoles(['doctor', 'public', 'hacker'])).toEqual(['doctor', 'public']);
    expect(sessionRoles([])).toEqual(['public']);
    expect(isPublic(sessionRoles([]))).toBe(true);
  });
  it('keeps every known role', () => {
    expect(sessionRoles(ROLES)).toEqual([...ROLES, 'public']);
  });
});
