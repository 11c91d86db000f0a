import web from '@dentflow/domain/i18n/en/web.json';
import errors from '@dentflow/domain/i18n/en/errors.json';
import domain from '@dentflow/domain/i18n/en/domain.json';
import cases from '@dentflow/domain/i18n/en/cases.json';
import files from '@dentflow/domain/i18n/en/files.json';
import shop from '@dentflow/domain/i18n/en/shop.json';
import admin from '@dentflow/domain/i18n/en/admin.json';
import payments from '@dentflow/domain/i18n/en/payments.json';
import chat from '@dentflow/domain/i18n/en/chat.json';
import notifications from '@dentflow/domain/i18n/en/notifications.json';

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
