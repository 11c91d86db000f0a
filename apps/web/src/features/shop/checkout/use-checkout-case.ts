import { useState } from 'react';
import { profileCurrency, type Currency, type UserProfile } from '@dentflow/domain';
import { useCaseList } from '../../cases/api/list-cases';
import { useChangeCaseCurrency } from '../../cases/api/set-case';
import { useOrderForCase } from '../cart/order-for-case';
import type { CaseMode } from '../components/cart-step';
import { useOrderTarget } from '../components/order-for-case';

/**
 * The case the order is for and the currency of every amount on the checkout. The case: the one
 * this tab orders for (the case page's 'Order more for this case', at any status the server
 * allows), else one of the caller's cases still in broad 'new', or a new one for a patient. The
 * currency: the case's, or the one the new case opens in (the profile's unless the user picks
 * the other).
 */
export function useCheckoutCase(
  profile: UserProfile | undefined,
  onCurrencyChangeError: (error: Error) => void,
) {
  const userId = profile?.id ?? 0;
  const orderFor = useOrderForCase();
  const target = useOrderTarget(orderFor.caseId);
  const caseList = useCaseList({ filter: 'new', page: 0, pageSize: 100 });
  const cases = (caseList.data?.items ?? []).filter((item) => item.owner.id === userId);
  const [chosenMode, setCaseMode] = useState<CaseMode>('new');
  const [chosenCaseId, setCaseId] = useState<number | null>(null);
  const caseMode: CaseMode = target ? 'existing' : chosenMode;
  const caseId = target ? target.caseId : chosenCaseId;
  const chosenCase = caseMode === 'existing' ? cases.find((item) => item.id === caseId) : undefined;
  const existing = target?.detail ?? chosenCase;

  const [newCaseCurrency, setNewCaseCurrency] = useState<Currency | null>(null);
  const currency = existing?.caseCurrency ?? newCaseCurrency ?? profileCurrency(profile?.dataInfo);
  const changeCaseCurrency = useChangeCaseCurrency();
  const switchCurrency = (next: Currency) => {
    if (caseMode === 'existing' && existing) {
      changeCaseCurrency.mutate(
        { id: existing.id, caseCurrency: next, modifiedAt: existing.modifiedAt },
        { onError: onCurrencyChangeError },
      );
    } else {
      setNewCaseCurrency(next);
    }
  };

  return {
    caseMode,
    setCaseMode,
    caseId,
    setCaseId,
    /** The case this tab orders for, when there is one. */
    target,
    /** Stops ordering for the target case (the order then goes to a chosen or new case). */
    leaveOrderTarget: () => orderFor.setCaseId(null),
    cases,
    casesLoading: caseList.isLoading,
    currency,
    setNewCaseCurrency,
    /** Another currency: the existing case's is changed on the server, a new case's here. */
    switchCurrency,
    changingCurrency: changeCaseCurrency.isPending,
  };
}
