import { Notifications } from '@mantine/notifications';

/** The notification container of the app (loaded after the first paint, see app.tsx). */
export function AppNotifications() {
  return <Notifications position="top-right" zIndex={1000} />;
}
