import { notifications } from '@mantine/notifications';
import { i18n } from './i18n';

/** Errors are red and titled Error; successes green and titled Success. */
export function showError(error: unknown): void {
  notifications.show({
    color: 'red',
    title: i18n.t('feedback.error'),
    message: errorMessage(error),
    autoClose: 6000,
  });
}

export function showSuccess(message: string): void {
  notifications.show({ color: 'green', title: i18n.t('feedback.success'), message });
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return i18n.t('feedback.unexpectedError');
}
