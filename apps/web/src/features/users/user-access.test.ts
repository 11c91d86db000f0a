import { describe, expect, it } from 'vitest';
import { EMPTY_DATA_CAPABILITIES } from '@dentflow/domain';
import { accessChanges, editableRoles, type AccessValues } from './user-access';

const before: AccessValues = {
  roles: ['doctor'],
  internal: false,
  capabilities: { ...EMPTY_DATA_CAPABILITIES },
};

describe('access changes', () => {
  it('is null when nothing changed, whatever the order of the roles', () => {
    expect(accessChanges(before, { ...before, capabilities: { ...before.capabilities } })).toBe(
      null,
    );
    const two = { ...before, roles: ['doctor', 'planner'] as AccessValues['roles'] };
    expect(accessChanges(two, { ...two, roles: ['planner', 'doctor'] })).toBe(null);
  });

  it('sends only the changed sections and capability fields, roles in the ROLES order', () => {
    expect(accessChanges(before, { ...before, roles: ['planner', 'doctor'] })).toEqual({
      roles: ['planner', 'doctor'],
    });
    expect(
      accessChanges(before, {
        ...before,
        internal: true,
        capabilities: { ...before.capabilities, instructorDiscount: 15 },
      }),
    ).toEqual({ internal: true, dataCapabilities: { instructorDiscount: 15 } });
  });

  it('keeps only the editable roles', () => {
    expect(editableRoles(['public', 'instructor', 'admin', 'ghost'])).toEqual([
      'admin',
      'instructor',
    ]);
  });
});
