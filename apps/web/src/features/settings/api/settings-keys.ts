import type { SettingsSection } from '@dentflow/domain';

/** TanStack Query keys of the settings administration. */
export const settingsKeys = {
  all: ['settings'] as const,
  section: (section: SettingsSection) => [...settingsKeys.all, 'section', section] as const,
  announcements: () => [...settingsKeys.all, 'announcements'] as const,
};
