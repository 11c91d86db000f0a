import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { renderWithApp } from '../../../test/render';
import { caseService } from '../test-fixtures';
import { ApproveDialog } from './approve-dialog';

const pending = (id: number, productName: string) =>
  caseService({ id, productName, approveRequestAt: '2026-11-21T10:00:00.000Z' });

describe('approve dialog', () => {
  beforeEach(() => applyLanguage('en'));

  it('preselects the single service pending approval and counts the characters left', async () => {
    const onSubmit = vi.fn();
    renderWithApp(
      <ApproveDialog
        opened
        services={[
          pending(1, 'Guide planning'),
          caseService({ id: 2, productName: 'Not requested' }),
        ]}
        onSubmit={onSubmit}
        onClose={() => {}}
      />,
    );
    const user = userEvent.setup();
    expect(await screen.findByRole('checkbox', { name: 'Guide planning' })).toBeChecked();
    // Only services pending approval are offered.
    expect(screen.queryByRole('checkbox', { name: 'Not requested' })).not.toBeInTheDocument();

    expect(screen.getByText('Characters left: 100')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Your comment/ }), 'Looks good');
    expect(screen.getByText('Characters left: 90')).toBeInTheDocument();
  });

  it('requires the password and a text before approving, then sends the chosen services', async () => {
    const onSubmit = vi.fn();
    renderWithApp(
      <ApproveDialog
        opened
        services={[pending(5, 'Guide planning')]}
        onSubmit={onSubmit}
        onClose={() => {}}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByRole('textbox', { name: /Your comment/ }), 'Approved');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('This field is required')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Your password/), 'Dentflow123');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onSubmit).toHaveBeenCalledWith({
      password: 'Dentflow123',
      text: 'Approved',
      serviceIds: [5],
    });
  });

  it('opens without any error, every pending service preselected, and says why the comment is required', async () => {
    const onSubmit = vi.fn();
    renderWithApp(
      <ApproveDialog
        opened
        services={[pending(1, 'Planning A'), pending(2, 'Planning B')]}
        onSubmit={onSubmit}
        onClose={() => {}}
      />,
    );
    const user = userEvent.setup();
    expect(await screen.findByRole('checkbox', { name: 'Planning A' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Planning B' })).toBeChecked();
    expect(screen.queryByText('Choose at least one service')).not.toBeInTheDocument();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
    expect(screen.getByRole('textbox', { name: /Your comment/ })).toHaveAccessibleDescription(
      /Required: .*kept in the case history/,
    );

    // Unticking everything shows the error once the user did it, and approving stays refused.
    await user.click(screen.getByRole('checkbox', { name: 'Planning A' }));
    expect(screen.queryByText('Choose at least one service')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Planning B' }));
    expect(screen.getByText('Choose at least one service')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Your comment/ }), 'Only B');
    await user.type(screen.getByLabelText(/Your password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.click(screen.getByRole('checkbox', { name: 'Planning B' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(onSubmit).toHaveBeenCalledWith({ password: 'secret', text: 'Only B', serviceIds: [2] });
  });

  it('stops the text at the limit', async () => {
    renderWithApp(
      <ApproveDialog
        opened
        services={[pending(1, 'P')]}
        limit={10}
        onSubmit={() => {}}
        onClose={() => {}}
      />,
    );
    const user = userEvent.setup();
    await user.type(
      await screen.findByRole('textbox', { name: /Your comment/ }),
      'abcdefghijklmno',
    );
    expect(screen.getByRole('textbox', { name: /Your comment/ })).toHaveValue('abcdefghij');
    expect(screen.getByText('Characters left: 0')).toBeInTheDocument();
  });
});
