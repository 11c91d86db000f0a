import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { renderWithApp } from '../../../test/render';
import { CancelDialog } from './cancel-dialog';

describe('cancel dialog', () => {
  beforeEach(() => applyLanguage('en'));

  it('offers reasons 1, 2, 3 and 6 and confirms only with a reason and a description', async () => {
    const onSubmit = vi.fn();
    renderWithApp(<CancelDialog opened onSubmit={onSubmit} onClose={() => {}} />);
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Request cancellation' });
    const confirm = () => screen.getByTestId('cancel-confirm');
    expect(confirm()).toBeDisabled();

    await user.click(screen.getByLabelText(/^Reason/, { selector: 'input' }));
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options.map((option) => option.textContent)).toEqual([
      'Abandonment',
      'Cannot be planned',
      'Wrong service (upgrade)',
      'Other',
    ]);
    await user.click(screen.getByRole('option', { name: 'Other', hidden: true }));
    expect(confirm()).toBeDisabled(); // no description yet

    const description = screen.getByLabelText(/^Description/, { selector: 'textarea' });
    await user.type(description, '   ');
    expect(confirm()).toBeDisabled();
    await user.type(description, 'Patient moved abroad');
    expect(confirm()).toBeEnabled();
    expect(dialog).toBeInTheDocument();

    await user.click(confirm());
    expect(onSubmit).toHaveBeenCalledWith({ reasonId: 6, description: 'Patient moved abroad' });
  });

  it('shows an error the server gave inside the dialog', async () => {
    renderWithApp(
      <CancelDialog
        opened
        error={new Error('This action is not possible')}
        onSubmit={() => {}}
        onClose={() => {}}
      />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This action is not possible');
  });
});
