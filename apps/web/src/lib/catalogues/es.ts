import web from '@dentflow/domain/i18n/es/web.json';
import errors from '@dentflow/domain/i18n/es/errors.json';
import domain from '@dentflow/domain/i18n/es/domain.json';
import cases from '@dentflow/domain/i18n/es/cases.json';
import files from '@dentflow/domain/i18n/es/files.json';
import shop from '@dentflow/domain/i18n/es/shop.json';
import admin from '@dentflow/domain/i18n/es/admin.json';
import payments from '@dentflow/domain/i18n/es/payments.json';
import chat from '@dentflow/domain/i18n/es/chat.json';
import notifications from '@dentflow/domain/i18n/es/notifications.json';

/** The interface texts of one language: a chunk of its own, loaded only when it is used. */
export const catalogue = {
  web,
  errors,
  domain,
  cases,
  files,
  shop,
  admin,
  payments,
  chat,
  notifications,
};
