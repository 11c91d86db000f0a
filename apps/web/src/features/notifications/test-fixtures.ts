import type { NotificationView } from '@dentflow/domain';

/** Test data in the contract's shapes (notification-api.ts). */
export function notificationView(overrides: Partial<NotificationView> = {}): NotificationView {
  return {
    id: 1,
    caseId: 42,
    eventType: 9,
    icon: 'edit',
    resourceId: null,
    path: '/case/42?tab=general',
    actor: { id: 9, displayName: 'Paulo Planner' },
    patient: { fname: 'Maria', lname: 'Silva' },
    createdAt: new Date(Date.now() - 5 * 60 * 1000).toISOString(),
    viewedAt: null,
    ...overrides,
  };
}
