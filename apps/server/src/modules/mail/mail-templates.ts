import { z } from 'zod';
import {
  CHAT_CHANNELS,
  isLanguage,
  notificationLabelKey,
  translate,
  type ChatChannelKey,
  type Language,
} from '@dentflow/domain';
import { accountMail } from '../../adapters/mail/account-mails';
import type { MailMessage } from '../../adapters/mail/mail-sender';

/** A stored mail that cannot be rendered (unknown template, bad params): retrying cannot help. */
export class MailTemplateError extends Error {
  override name = 'MailTemplateError';
}

export interface StoredMail {
  recipient: string;
  template: string;
  language: string;
  params: Record<string, unknown>;
}

const accountParams = z.object({ name: z.string(), token: z.string().min(1) });

const notificationParams = z.object({
  eventType: z.number().int(),
  caseId: z.number().int().nullish(),
  patientName: z.string().nullish(),
  actorName: z.string().nullish(),
  /** Where the web opens it, e.g. `/case/12?tab=chat&channel=3`. */
  path: z.string().nullish(),
});

const instructorInviteParams = z.object({
  token: z.string().min(1),
  instructorName: z.string(),
  discount: z.number().int().min(0).max(100),
});

const chatDigestParams = z.object({
  items: z
    .array(
      z.object({
        caseId: z.number().int(),
        patientName: z.string().nullish(),
        channel: z.number().int(),
        count: z.number().int().positive(),
      }),
    )
    .min(1),
});

type Renderer = (mail: StoredMail, language: Language, publicUrl: string) => MailMessage;

const RENDERERS: Record<string, Renderer> = {
  verifyAccount: (mail, language, publicUrl) => {
    const params = parse(accountParams, mail);
    const link = `${publicUrl}/verify/${encodeURIComponent(params.token)}`;
    return accountMail(
      'verifyAccount',
      language,
      { email: mail.recipient, name: params.name },
      link,
    );
  },
  resetPassword: (mail, language, publicUrl) => {
    const params = parse(accountParams, mail);
    const link = `${publicUrl}/resetPassword/${encodeURIComponent(params.token)}`;
    return accountMail(
      'resetPassword',
      language,
      { email: mail.recipient, name: params.name },
      link,
    );
  },
  notification: (mail, language, publicUrl) => {
    const params = parse(notificationParams, mail);
    const t = translator(language);
    const event = translate(language, 'domain', notificationLabelKey(params.eventType));
    const caseId = params.caseId ?? null;
    const link = `${publicUrl}${safePath(params.path) ?? (caseId === null ? '/notifications' : `/case/${caseId}`)}`;
    const onCase = caseId === null ? null : caseLabel(t, caseId, params.patientName);
    const intro = onCase
      ? t('notification.intro', { case: onCase, event })
      : t('notification.introGeneral', { event });
    return message(language, {
      to: mail.recipient,
      subject: onCase
        ? t('notification.subject', { case: onCase, event })
        : t('notification.subjectGeneral', { event }),
      paragraphs: [
        intro,
        ...(params.actorName ? [t('notification.actor', { actorName: params.actorName })] : []),
      ],
      action: { label: t('notification.action'), link },
    });
  },
  instructorInvite: (mail, language, publicUrl) => {
    const params = parse(instructorInviteParams, mail);
    const t = translator(language);
    const names = { instructorName: params.instructorName, discount: params.discount };
    return message(language, {
      to: mail.recipient,
      subject: t('instructorInvite.subject', names),
      paragraphs: [
        t('instructorInvite.intro', names),
        ...(params.discount > 0 ? [t('instructorInvite.discount', names)] : []),
        t('instructorInvite.existingAccount'),
        t('instructorInvite.expiry'),
      ],
      action: {
        label: t('instructorInvite.action'),
        link: `${publicUrl}/register?invite=${encodeURIComponent(params.token)}`,
      },
    });
  },
  chatDigest: (mail, language, publicUrl) => {
    const { items } = parse(chatDigestParams, mail);
    const t = translator(language);
    const total = items.reduce((sum, item) => sum + item.count, 0);
    return message(language, {
      to: mail.recipient,
      subject:
        total === 1 ? t('chatDigest.subjectOne') : t('chatDigest.subjectMany', { count: total }),
      paragraphs: [t('chatDigest.intro')],
      list: items.map((item) => ({
        text: t(item.count === 1 ? 'chatDigest.itemOne' : 'chatDigest.itemMany', {
          channel: channelLabel(language, item.channel),
          case: caseLabel(t, item.caseId, item.patientName),
          count: item.count,
        }),
        link: `${publicUrl}/case/${item.caseId}?tab=chat&channel=${item.channel}`,
      })),
      action: { label: t('chatDigest.action'), link: `${publicUrl}/notifications` },
    });
  },
};

export const MAIL_TEMPLATES = Object.keys(RENDERERS);

/**
 * The mail a stored outbox row stands for, in the row's language (English when it is not one of
 * ours). Throws MailTemplateError for an unknown template or params it cannot use.
 */
export function renderMail(mail: StoredMail, publicUrl: string): MailMessage {
  const render = Object.hasOwn(RENDERERS, mail.template) ? RENDERERS[mail.template] : undefined;
  if (!render) throw new MailTemplateError(`unknown mail template "${mail.template}"`);
  return render(mail, isLanguage(mail.language) ? mail.language : 'en', publicUrl);
}

function parse<T>(schema: z.ZodType<T>, mail: StoredMail): T {
  const parsed = schema.safeParse(mail.params);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(params)');
    throw new MailTemplateError(`bad params for "${mail.template}": ${fields.join(', ')}`);
  }
  return parsed.data;
}

type Translator = (key: string, params?: Record<string, string | number>) => string;
const translator =
  (language: Language): Translator =>
  (key, params) =>
    translate(language, 'mail', key, params);

const caseLabel = (t: Translator, caseId: number, patientName: string | null | undefined) =>
  patientName ? t('common.casePatient', { caseId, patientName }) : t('common.case', { caseId });

function channelLabel(language: Language, channel: number): string {
  const key = (Object.keys(CHAT_CHANNELS) as ChatChannelKey[]).find(
    (name) => CHAT_CHANNELS[name] === channel,
  );
  return key ? translate(language, 'domain', `chatChannels.${key}`) : String(channel);
}

/** Only a path of this site: `//host` or `https://…` would turn the link into someone else's. */
const safePath = (path: string | null | undefined) =>
  path && /^\/(?![/\\])/.test(path) ? path : undefined;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A notice mail: greeting, paragraphs, an optional list of links, one action, the footer. */
function message(
  language: Language,
  content: {
    to: string;
    subject: string;
    paragraphs: string[];
    list?: { text: string; link: string }[];
    action: { label: string; link: string };
  },
): MailMessage {
  const t = translator(language);
  const list = content.list ?? [];
  const footer = [t('common.preferences'), t('common.signature')];
  const text = [
    t('common.hello'),
    '',
    ...content.paragraphs,
    ...(list.length > 0
      ? ['', ...list.flatMap((item) => [`- ${item.text}`, `  ${item.link}`])]
      : []),
    '',
    `${content.action.label}: ${content.action.link}`,
    '',
    ...footer,
  ].join('\n');
  const listHtml =
    list.length > 0
      ? `<ul>${list.map((item) => `<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.text)}</a></li>`).join('')}</ul>\n`
      : '';
  const html = `<!doctype html>
<html lang="${language === 'ptBR' ? 'pt-BR' : language}"><body style="font-family:sans-serif;color:#222">
<p>${escapeHtml(t('common.hello'))}</p>
${content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
${listHtml}<p><a href="${escapeHtml(content.action.link)}" style="background:#76bb46;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p>${footer.map(escapeHtml).join('<br>')}</p>
</body></html>`;
  return {
    to: content.to,
    subject: content.subject,
    text,
    html,
    links: [...list.map((item) => item.link), content.action.link],
  };
}
