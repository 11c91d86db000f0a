import { describe, expect, it } from 'vitest';
import {
  announcementTextFor,
  emailsSettingsSchema,
  isPixWritableText,
  paymentsSettingsSchema,
  shippingSettingsFormSchema,
  sleevesSettingsSchema,
} from './settings-api';

const on = { pix: true, physical: true, dentalPrev: true, paypal: true, pagseguro: true };

describe('payments settings', () => {
  it.each([
    ['São Paulo', true],
    ['Clínica 24h', true],
    ['日本語', false],
    ['123 !', false],
    ['', false],
  ])('%j can be written into a Pix code → %s', (text, ok) =>
    expect(isPixWritableText(text)).toBe(ok),
  );

  it('takes empty Pix fields (the server configuration applies) and refuses unwritable ones', () => {
    const form = { pixKey: '', pixMerchantName: '', pixMerchantCity: '', enabled: on };
    expect(paymentsSettingsSchema.safeParse(form).success).toBe(true);
    const bad = paymentsSettingsSchema.safeParse({
      ...form,
      pixKey: 'with space',
      pixMerchantName: 'Ω',
      pixMerchantCity: 'x'.repeat(16),
    });
    expect(bad.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'pixKey',
      'pixMerchantCity',
      'pixMerchantName',
    ]);
  });
});

describe('emails settings', () => {
  it('sorts and deduplicates the events, refuses unknown ones and header-breaking names', () => {
    expect(
      emailsSettingsSchema.parse({ senderName: ' Dentflow ', defaultEvents: [9, 2, 9] }),
    ).toEqual({ senderName: 'Dentflow', supportEmail: '', defaultEvents: [2, 9] });
    expect(emailsSettingsSchema.safeParse({ senderName: 'x', defaultEvents: [1] }).success).toBe(
      false,
    );
    expect(
      emailsSettingsSchema.safeParse({ senderName: 'a\r\nBcc: x', defaultEvents: [] }).success,
    ).toBe(false);
  });

  it.each([
    ['absent: none is named', undefined, ''],
    ['empty', '', ''],
    ['an address, trimmed', ' help@lab.test ', 'help@lab.test'],
    ['not an address', 'help at lab', null],
    ['too long', `${'a'.repeat(250)}@x.io`, null],
  ])('support e-mail %s', (_name, supportEmail, expected) => {
    const parsed = emailsSettingsSchema.safeParse({
      senderName: 'Dentflow',
      defaultEvents: [],
      ...(supportEmail === undefined ? {} : { supportEmail }),
    });
    expect(parsed.success ? parsed.data.supportEmail : null).toBe(expected);
  });
});

describe('sleeves and shipping settings', () => {
  const prices = { BRL: 100, USD: 20 };
  it('lets a deleted sleeve share a live one’s name, not two live ones', () => {
    const twins = [
      { sleeveManufacture: 'Neo', prices },
      { sleeveManufacture: 'NEO', prices },
    ];
    expect(sleevesSettingsSchema.safeParse({ sleeves: twins }).success).toBe(false);
    expect(
      sleevesSettingsSchema.safeParse({
        sleeves: [twins[0], { ...twins[1], id: 3, deleted: true }],
      }).success,
    ).toBe(true);
  });

  it('refuses a shipment type twice and a zip range out of order', () => {
    const option = { shipmentType: 1, fees: { BRL: 1, USD: 1 }, days: 2, active: true };
    expect(
      shippingSettingsFormSchema.safeParse({ options: [option], motoboyZipRanges: [] }).success,
    ).toBe(true);
    expect(
      shippingSettingsFormSchema.safeParse({ options: [option, option], motoboyZipRanges: [] })
        .success,
    ).toBe(false);
    expect(
      shippingSettingsFormSchema.safeParse({
        options: [],
        motoboyZipRanges: [{ from: '02000000', to: '01000000' }],
      }).success,
    ).toBe(false);
  });
});

describe('announcementTextFor', () => {
  const texts = {
    ptBR: { title: 'Aviso', body: 'Corpo' },
    en: { title: 'Notice', body: 'Body' },
    es: { title: '', body: '' },
  };
  it.each([
    ['ptBR', 'Aviso'],
    ['en', 'Notice'],
    ['es', 'Notice'],
  ] as const)('a %s reader sees %s', (language, title) =>
    expect(announcementTextFor(texts, language).title).toBe(title),
  );
  it('falls back to ptBR without English, and to nothing without any title', () => {
    expect(announcementTextFor({ ptBR: texts.ptBR }, 'es')).toEqual(texts.ptBR);
    expect(announcementTextFor({}, 'en')).toEqual({ title: '', body: '' });
  });
});
