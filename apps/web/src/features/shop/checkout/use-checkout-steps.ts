import { useState } from 'react';
import type { CheckoutStep } from '@dentflow/domain';

/**
 * The checkout's steps — Cart, Address (only when something ships) and Payment — the one shown,
 * and which ones the user tried to leave (their checks show from then on).
 */
export function useCheckoutSteps(ships: boolean) {
  const steps: CheckoutStep[] = ships ? ['cart', 'address', 'payment'] : ['cart', 'payment'];
  const [requestedStep, setStep] = useState<CheckoutStep>('cart');
  // A step that no longer applies (the cart stopped shipping) falls back to the first.
  const step = steps.includes(requestedStep) ? requestedStep : 'cart';
  const active = steps.indexOf(step);
  const [attempted, setAttempted] = useState<Partial<Record<CheckoutStep, boolean>>>({});
  return {
    steps,
    step,
    active,
    setStep,
    /** Goes to the step at `index` when it comes before the current one. */
    goBackTo: (index: number) => {
      if (index < active) setStep(steps[index] ?? 'cart');
    },
    goBack: () => setStep(steps[active - 1] ?? 'cart'),
    goForward: () => setStep(steps[active + 1] ?? step),
    /** Whether the user tried to leave `name` (the payment step: to place the order). */
    attempted: (name: CheckoutStep) => attempted[name] === true,
    markAttempted: (name: CheckoutStep) =>
      setAttempted((current) => ({ ...current, [name]: true })),
    /** Field checks show on the current step once it was attempted, and everywhere after an order. */
    showChecks: attempted[step] === true || attempted.payment === true,
  };
}
