import { translate, type Language } from '@dentflow/domain';
import type { MailMessage } from './mail-sender';

export type AccountMailKind = 'verifyAccount' | 'resetPassword';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** An account mail (verification, password reset) in the recipient's language, from `mail.json`. */
export function accountMail(
  kind: AccountMailKind,
  language: Language,
  recipient: { email: string; name: string },
  link: string,
): MailMessage {
  const t = (key: string, params?: Record<string, string>) =>
    translate(language, 'mail', key, params);
  const greeting = t('common.greeting', { name: recipient.name });
  const lines = [
    greeting,
    '',
    t(`${kind}.intro`),
    '',
    `${t(`${kind}.action`)}: ${link}`,
    '',
    t(`${kind}.expiry`),
    t('common.ignore'),
    '',
    t('common.signature'),
  ];
  const html = `<!doctype html>
<html lang="${language === 'ptBR' ? 'pt-BR' : language}"><body style="font-family:sans-serif;color:#222">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(t(`${kind}.intro`))}</p>
<p><a href="${escapeHtml(link)}" style="background:#76bb46;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(t(`${kind}.action`))}</a></p>
<p>${escapeHtml(t('common.linkHint'))}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(t(`${kind}.expiry`))}<br>${escapeHtml(t('common.ignore'))}</p>
<p>${escapeHtml(t('common.signature'))}</p>
</body></html>`;
  return {
    to: recipient.email,
    subject: t(`${kind}.subject`),
    text: lines.join('\n'),
    html,
    links: [link],
  };
}
