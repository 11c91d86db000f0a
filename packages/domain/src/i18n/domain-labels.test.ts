import { describe, expect, it } from 'vitest';
import { catalogues, translate } from './catalogues';
import { LANGUAGES, CURRENCIES } from './locale';
import { CASE_ACTIONS, CASE_STATUSES } from '../cases/case-status';
import { CASE_CHECK_KEYS } from '../cases/case-checks';
import { REVIEW_REASONS } from '../cases/case-review';
import { JAWS, SERVICE_DATA_SECTIONS, TREATMENT_PURPOSES } from '../cases/service-data';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from '../payments/payment';
import { INVOICE_DOCUMENT_TYPES } from '../payments/invoice';
import { CANCEL_REASONS, SHIPPING_OPTIONS } from '../constants';
import { ATTACHMENT_ACTIONS, ATTACHMENT_STATUSES } from '../attachments/attachment';
import { NOTIFICATION_TYPES } from '../notifications/notification';
import { CHAT_CHANNELS } from '../chat/chat';
import { KINDS_OF_MANUFACTURE, PRODUCT_KINDS, PRODUCT_TYPES, QTD_OPTIONS } from '../shop/product';
import { COUPON_REJECTIONS, COUPON_TYPES } from '../shop/coupon';
import { CHECKOUT_STEPS } from '../shop/checkout';
import { DOCUMENT_TYPES, GENDERS } from '../profile/profile';
import { ROLES, PUBLIC_ROLE } from '../auth/roles';

/** Every constant the UI shows, with the domain-catalogue group holding its labels. */
const LABELLED: Record<string, readonly string[]> = {
  caseStatuses: CASE_STATUSES,
  caseActions: [...CASE_ACTIONS, 'archive', 'unarchive', 'problemSolved'],
  caseChecks: CASE_CHECK_KEYS,
  reviewReasons: Object.keys(REVIEW_REASONS),
  paymentStatuses: PAYMENT_STATUSES,
  paymentMethods: PAYMENT_METHODS,
  cancelReasons: Object.keys(CANCEL_REASONS),
  treatmentPurposes: Object.keys(TREATMENT_PURPOSES),
  jaws: JAWS,
  serviceDataSections: SERVICE_DATA_SECTIONS,
  productTypes: Object.keys(PRODUCT_TYPES),
  productKinds: Object.keys(PRODUCT_KINDS),
  qtdOptions: Object.keys(QTD_OPTIONS),
  kindsOfManufacture: Object.keys(KINDS_OF_MANUFACTURE),
  shippingOptions: Object.keys(SHIPPING_OPTIONS),
  notificationTypes: [...Object.keys(NOTIFICATION_TYPES), 'other'],
  attachmentStatuses: ATTACHMENT_STATUSES,
  attachmentActions: ATTACHMENT_ACTIONS,
  chatChannels: Object.keys(CHAT_CHANNELS),
  documentTypes: [...DOCUMENT_TYPES, ...INVOICE_DOCUMENT_TYPES],
  couponTypes: Object.keys(COUPON_TYPES),
  couponRejections: COUPON_REJECTIONS,
  checkoutSteps: CHECKOUT_STEPS,
  checkoutProblems: ['sleeveManufacturer', 'sleeveQuantity', 'shipment'],
  roles: [...ROLES, PUBLIC_ROLE],
  languages: LANGUAGES,
  currencies: CURRENCIES,
  genders: GENDERS,
  avatarRejections: ['type', 'size'],
};

const leafKeys = (node: unknown, prefix = ''): string[] =>
  node && typeof node === 'object'
    ? Object.entries(node).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k))
    : [prefix];

describe('domain labels', () => {
  it.each(Object.entries(LABELLED))(
    '%s: every value has a label in ptBR, en and es',
    (group, values) => {
      for (const language of LANGUAGES) {
        for (const value of values) {
          const key = `${group}.${value}`;
          const label = translate(language, 'domain', key);
          expect(label, `${language} ${key}`).not.toBe(key);
          expect(label.trim().length).toBeGreaterThan(0);
        }
      }
    },
  );

  it('the three domain catalogues have the same keys', () => {
    const en = leafKeys(catalogues.en.domain).sort();
    expect(leafKeys(catalogues.ptBR.domain).sort()).toEqual(en);
    expect(leafKeys(catalogues.es.domain).sort()).toEqual(en);
  });

  it('translations are real: most ptBR and es labels differ from en', () => {
    const keys = leafKeys(catalogues.en.domain);
    for (const language of ['ptBR', 'es'] as const) {
      const same = keys.filter(
        (key) => translate(language, 'domain', key) === translate('en', 'domain', key),
      );
      expect(same.length / keys.length).toBeLessThan(0.2);
    }
  });

  it('has the spec wording of the cancel message', () => {
    expect(translate('en', 'domain', 'cancel.notAuthorizedYet')).toBe('NOT AUTHORIZED YET');
  });
});
