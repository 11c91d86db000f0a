import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATES, MailTemplateError, renderMail } from './mail-templates';

const URL = 'http://dentflow.test';

describe('mail templates', () => {
  it('renders the account mails with their link, in the row language', () => {
    const verify = renderMail(
      {
        recipient: 'ana@example.com',
        template: 'verifyAccount',
        language: 'ptBR',
        params: { userId: 4, name: 'Ana', token: 'tok_123' },
      },
      URL,
    );
    expect(verify.to).toBe('ana@example.com');
    expect(verify.subject).toBe('Confirme sua conta Dentflow');
    expect(verify.links).toEqual(['http://dentflow.test/verify/tok_123']);
    expect(verify.text).toContain('Olá Ana,');

    const reset = renderMail(
      {
        recipient: 'eve@example.com',
        template: 'resetPassword',
        language: 'es',
        params: { name: '<b>Eve</b>', token: 'tok_456' },
      },
      URL,
    );
    expect(reset.subject).toBe('Restablezca su contraseña de Dentflow');
    expect(reset.links).toEqual(['http://dentflow.test/resetPassword/tok_456']);
    expect(reset.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
  });

  it('renders a notification: case, patient, event label, actor and a link to its path', () => {
    const mail = renderMail(
      {
        recipient: 'ana@example.com',
        template: 'notification',
        language: 'en',
        params: {
          eventType: 9,
          caseId: 12,
          patientName: 'Ana Lima',
          actorName: 'Bruno <Costa>',
          path: '/case/12?tab=history',
        },
      },
      URL,
    );
    expect(mail.subject).toBe('New activity on case #12 (Ana Lima): Status changed');
    expect(mail.text).toContain('By Bruno <Costa>.');
    expect(mail.html).toContain('By Bruno &lt;Costa&gt;.');
    expect(mail.links).toEqual(['http://dentflow.test/case/12?tab=history']);

    const es = renderMail(
      {
        recipient: 'a@b.c',
        template: 'notification',
        language: 'es',
        params: { eventType: 23, caseId: 7 },
      },
      URL,
    );
    expect(es.subject).toBe('Nueva actividad en el caso #7: Pendiente de aprobación');
    expect(es.links).toEqual(['http://dentflow.test/case/7']);
  });

  it('never links outside the site, and falls back to English for an unknown language', () => {
    for (const path of ['//evil.test/x', 'https://evil.test', '/\\evil.test', 'case/1']) {
      const mail = renderMail(
        {
          recipient: 'a@b.c',
          template: 'notification',
          language: 'fr',
          params: { eventType: 2, caseId: 3, path },
        },
        URL,
      );
      expect(mail.links).toEqual(['http://dentflow.test/case/3']);
      expect(mail.subject).toBe('New activity on case #3: File added');
    }
    const general = renderMail(
      { recipient: 'a@b.c', template: 'notification', language: 'en', params: { eventType: 99 } },
      URL,
    );
    expect(general.subject).toBe('New activity on Dentflow: Notification');
    expect(general.links).toEqual(['http://dentflow.test/notifications']);
  });

  it('renders a chat digest: one line and link per case channel, counted', () => {
    const mail = renderMail(
      {
        recipient: 'a@b.c',
        template: 'chatDigest',
        language: 'ptBR',
        params: {
          items: [
            { caseId: 12, patientName: 'Ana Lima', channel: 3, count: 2 },
            { caseId: 14, patientName: null, channel: 13, count: 1 },
          ],
        },
      },
      URL,
    );
    expect(mail.subject).toBe('Você tem 3 mensagens não lidas no Dentflow');
    expect(mail.text).toContain('- Chat Público do caso #12 (Ana Lima): 2 novas mensagens');
    expect(mail.text).toContain('- Chat Instrutor do caso #14: 1 nova mensagem');
    expect(mail.links).toEqual([
      'http://dentflow.test/case/12?tab=chat&channel=3',
      'http://dentflow.test/case/14?tab=chat&channel=13',
      'http://dentflow.test/notifications',
    ]);
    const one = renderMail(
      {
        recipient: 'a@b.c',
        template: 'chatDigest',
        language: 'en',
        params: { items: [{ caseId: 1, channel: 4, count: 1 }] },
      },
      URL,
    );
    expect(one.subject).toBe('You have 1 unread message on Dentflow');
    expect(one.text).toContain('Internal chat of case #1: 1 new message');
  });

  it.each([
    ['ptBR', 'Dra. Ana convida você para o Dentflow', 'você tem 15% de desconto na loja'],
    ['en', 'Dra. Ana invites you to Dentflow', 'you get 15% off in the Dentflow shop'],
    ['es', 'Dra. Ana lo invita a Dentflow', 'tiene un 15% de descuento en la tienda'],
  ])(
    'renders an instructor invitation in %s that states the discount',
    (language, subject, discount) => {
      const invite = (percent: number) =>
        renderMail(
          {
            recipient: 'lucia@clinic.example',
            template: 'instructorInvite',
            language,
            params: { token: 'tok_789', instructorName: 'Dra. Ana', discount: percent },
          },
          URL,
        );
      const mail = invite(15);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(discount);
      expect(mail.html).toContain(discount);
      expect(mail.links).toEqual(['http://dentflow.test/register?invite=tok_789']);
      // An instructor without a discount: the mail promises none.
      expect(invite(0).text).not.toContain('%');
    },
  );

  it('refuses an unknown template and params it cannot use', () => {
    expect(MAIL_TEMPLATES.sort()).toEqual([
      'chatDigest',
      'instructorInvite',
      'notification',
      'resetPassword',
      'verifyAccount',
    ]);
    const bad = [
      { template: 'nope', params: {} },
      { template: 'toString', params: {} },
      { template: 'verifyAccount', params: { name: 'Ana' } },
      { template: 'notification', params: { eventType: 'nine' } },
      { template: 'chatDigest', params: { items: [] } },
    ];
    for (const { template, params } of bad) {
      expect(() =>
        renderMail({ recipient: 'a@b.c', template, language: 'en', params }, URL),
      ).toThrow(MailTemplateError);
    }
  });
});
