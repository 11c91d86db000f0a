import { screen, waitFor } from '@testing-library/react';

/** The date field labelled `label` once its calendar has loaded (DateField loads it lazily). */
export async function findDateField(label: string | RegExp): Promise<HTMLElement> {
  let field: HTMLElement | undefined;
  await waitFor(() => {
    field = screen.getByLabelText(label);
    if (field.getAttribute('aria-busy') === 'true') throw new Error(`${String(label)} is loading`);
  });
  return field!;
}
