import { CURRENCIES, type Currency } from '../i18n/locale';
import { mayOnCase, type CaseRecordFacts, type CaseRelation, type CaseViewer } from './case-access';

/**
 * A case's currency is the one every amount of the case is charged and shown in. It is chosen
 * when the case is opened (the owner's profile currency unless they pick another) and may change
 * while the case has no live transaction — none at all, or only cancelled ones — because a live
 * transaction was priced in the current currency and its amounts must not change meaning.
 */
export function mayChangeCaseCurrency(transactions: readonly { paymentStatus: string }[]): boolean {
  return transactions.every((transaction) => transaction.paymentStatus === 'cancelled');
}

/**
 * The viewer may change this case's currency now: they may edit the case (the owner while it is
 * broad 'new', staff at any time; never archived) and it has no live transaction.
 */
export function mayChangeCurrencyOfCase(
  viewer: CaseViewer,
  relation: CaseRelation | null,
  record: CaseRecordFacts,
  transactions: readonly { paymentStatus: string }[],
): boolean {
  return (
    mayOnCase('changeCurrency', viewer, relation, record) && mayChangeCaseCurrency(transactions)
  );
}

/** The currencies a case could be in besides its own (the change a case page or checkout offers). */
export const otherCurrencies = (currency: Currency): Currency[] =>
  CURRENCIES.filter((other) => other !== currency);
