// What the notifications module offers other modules; they import nothing else from it.
export { notifyCaseUsers, publishNotifications } from './notify';
