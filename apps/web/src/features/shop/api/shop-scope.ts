import { useTranslation } from 'react-i18next';
import {
  DEFAULT_CURRENCY,
  DEFAULT_LANGUAGE,
  isLanguage,
  type Currency,
  type Language,
} from '@dentflow/domain';
import { useProfile } from '../../profile/api/get-profile';

/** What shop texts and prices depend on: the interface language and the profile currency. */
export interface ShopScope {
  language: Language;
  currency: Currency;
}

export function useShopScope(): ShopScope {
  const { i18n } = useTranslation();
  const { data: profile } = useProfile();
  return {
    language: isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE,
    currency: profile?.dataInfo?.currency ?? DEFAULT_CURRENCY,
  };
}

export const scopeKey = ({ language, currency }: ShopScope) => `${language}:${currency}`;
