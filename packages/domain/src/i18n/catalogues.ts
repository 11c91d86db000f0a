import type { Language } from './locale';
import enErrors from './en/errors.json' with { type: 'json' };
import enMail from './en/mail.json' with { type: 'json' };
import enWeb from './en/web.json' with { type: 'json' };
import enDomain from './en/domain.json' with { type: 'json' };
import enCases from './en/cases.json' with { type: 'json' };
import enFiles from './en/files.json' with { type: 'json' };
import enShop from './en/shop.json' with { type: 'json' };
import enAdmin from './en/admin.json' with { type: 'json' };
import enPayments from './en/payments.json' with { type: 'json' };
import enChat from './en/chat.json' with { type: 'json' };
import enNotifications from './en/notifications.json' with { type: 'json' };
import ptBRErrors from './ptBR/errors.json' with { type: 'json' };
import ptBRMail from './ptBR/mail.json' with { type: 'json' };
import ptBRWeb from './ptBR/web.json' with { type: 'json' };
import ptBRDomain from './ptBR/domain.json' with { type: 'json' };
import ptBRCases from './ptBR/cases.json' with { type: 'json' };
import ptBRFiles from './ptBR/files.json' with { type: 'json' };
import ptBRShop from './ptBR/shop.json' with { type: 'json' };
import ptBRAdmin from './ptBR/admin.json' with { type: 'json' };
import ptBRPayments from './ptBR/payments.json' with { type: 'json' };
import ptBRChat from './ptBR/chat.json' with { type: 'json' };
import ptBRNotifications from './ptBR/notifications.json' with { type: 'json' };
import esErrors from './es/errors.json' with { type: 'json' };
import esMail from './es/mail.json' with { type: 'json' };
import esWeb from './es/web.json' with { type: 'json' };
import esDomain from './es/domain.json' with { type: 'json' };
import esCases from './es/cases.json' with { type: 'json' };
import esFiles from './es/files.json' with { type: 'json' };
import esShop from './es/shop.json' with { type: 'json' };
import esAdmin from './es/admin.json' with { type: 'json' };
import esPayments from './es/payments.json' with { type: 'json' };
import esChat from './es/chat.json' with { type: 'json' };
import esNotifications from './es/notifications.json' with { type: 'json' };

/**
 * The message catalogues shared by server and web, one file per namespace and language:
 * `errors` (API errors and validation messages), `mail` (emails), `web` (interface texts),
 * `domain` (labels of the spec's constants: statuses, kinds, purposes...), `cases` (the case
 * screens), `files` (attachments and viewers), `shop` (shop and checkout) and `admin` (the
 * product, coupon and settings screens), `payments` (transactions, receipts, invoices, cancels), `chat` and `notifications`.
 */
export const NAMESPACES = [
  'errors',
  'mail',
  'web',
  'domain',
  'cases',
  'files',
  'shop',
  'admin',
  'payments',
  'chat',
  'notifications',
] as const;
export type Namespace = (typeof NAMESPACES)[number];
type Catalogue = Record<string, unknown>;

export const catalogues: Record<Language, Record<Namespace, Catalogue>> = {
  en: {
    errors: enErrors,
    mail: enMail,
    web: enWeb,
    domain: enDomain,
    cases: enCases,
    files: enFiles,
    shop: enShop,
    admin: enAdmin,
    payments: enPayments,
    chat: enChat,
    notifications: enNotifications,
  },
  ptBR: {
    errors: ptBRErrors,
    mail: ptBRMail,
    web: ptBRWeb,
    domain: ptBRDomain,
    cases: ptBRCases,
    files: ptBRFiles,
    shop: ptBRShop,
    admin: ptBRAdmin,
    payments: ptBRPayments,
    chat: ptBRChat,
    notifications: ptBRNotifications,
  },
  es: {
    errors: esErrors,
    mail: esMail,
    web: esWeb,
    domain: esDomain,
    cases: esCases,
    files: esFiles,
    shop: esShop,
    admin: esAdmin,
    payments: esPayments,
    chat: esChat,
    notifications: esNotifications,
  },
};

/** Looks up a dotted key (`validation.required`) and fills `{{name}}` placeholders. */
export function translate(
  language: Language,
  namespace: Namespace,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const find = (lang: Language): unknown =>
    key
      .split('.')
      .reduce<unknown>(
        (node, part) => (node && typeof node === 'object' ? (node as Catalogue)[part] : undefined),
        catalogues[lang][namespace],
      );
  const found = find(language) ?? find('en');
  const text = typeof found === 'string' ? found : key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
