import web from '@dentflow/domain/i18n/ptBR/web.json';
import errors from '@dentflow/domain/i18n/ptBR/errors.json';
import domain from '@dentflow/domain/i18n/ptBR/domain.json';
import cases from '@dentflow/domain/i18n/ptBR/cases.json';
import files from '@dentflow/domain/i18n/ptBR/files.json';
import shop from '@dentflow/domain/i18n/ptBR/shop.json';
import admin from '@dentflow/domain/i18n/ptBR/admin.json';
import payments from '@dentflow/domain/i18n/ptBR/payments.json';
import chat from '@dentflow/domain/i18n/ptBR/chat.json';
import notifications from '@dentflow/domain/i18n/ptBR/notifications.json';

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
