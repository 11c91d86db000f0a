import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Pin } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { renderWithApp } from '../../../test/render';
import { PinList, PinNoteForm } from './pin-panel';

const pin = (overrides: Partial<Pin> = {}): Pin => ({
  id: 1,
  attachmentId: 15,
  caseId: 42,
  version: 1,
  author: { id: 9, name: 'Dora Doctor' },
  note: 'Implant 36 too close to the nerve',
  point: [1, 2, 3],
  normal: [0, 0, 1],
  camera: { position: [0, 0, 100], target: [0, 0, 0] },
  createdAt: '2026-11-20T10:00:00.000Z',
  resolvedAt: null,
  resolvedBy: null,
  chatMessageId: 5,
  ...overrides,
});

describe('PinList', () => {
  beforeEach(() => applyLanguage('en'));

  it('lists note and author; Resolve on open pins and Reopen on resolved ones, where allowed', async () => {
    const onResolve = vi.fn();
    const onSelect = vi.fn();
    const pins = [
      pin(),
      pin({ id: 2, note: 'Sleeve height', resolvedAt: '2026-11-21T10:00:00.000Z' }),
      pin({ id: 3, note: 'Not mine to resolve', author: { id: 4, name: 'Paulo Planner' } }),
    ];
    renderWithApp(
      <PinList
        pins={pins}
        selectedId={null}
        mayResolve={(item) => item.author.id === 9}
        onSelect={onSelect}
        onResolve={onResolve}
      />,
    );
    const items = screen.getAllByTestId('pin-item');
    expect(items.map((item) => item.dataset.pinId)).toEqual(['1', '2', '3']);
    expect(within(items[0]!).getByText('Dora Doctor', { exact: false })).toBeInTheDocument();
    expect(items[1]).toHaveAttribute('data-resolved', 'true');
    expect(within(items[1]!).getByText('Resolved')).toBeInTheDocument();
    expect(within(items[2]!).queryByRole('button', { name: /Resolve|Reopen/ })).toBeNull();

    await userEvent.click(within(items[0]!).getByRole('button', { name: 'Resolve' }));
    expect(onResolve).toHaveBeenLastCalledWith(pins[0], true);
    await userEvent.click(within(items[1]!).getByRole('button', { name: 'Reopen' }));
    expect(onResolve).toHaveBeenLastCalledWith(pins[1], false);
    await userEvent.click(screen.getByRole('button', { name: 'Go to pin 3' }));
    expect(onSelect).toHaveBeenCalledWith(pins[2]);
  });

  it('says when there is none', () => {
    renderWithApp(
      <PinList
        pins={[]}
        selectedId={null}
        mayResolve={() => true}
        onSelect={vi.fn()}
        onResolve={vi.fn()}
      />,
    );
    expect(screen.getByText('No pins on this model yet.')).toBeInTheDocument();
  });
});

describe('PinNoteForm', () => {
  beforeEach(() => applyLanguage('en'));

  it('sends the trimmed note; an empty note cannot be sent', async () => {
    const onSubmit = vi.fn();
    renderWithApp(<PinNoteForm onSubmit={onSubmit} onCancel={vi.fn()} />);
    const save = screen.getByRole('button', { name: 'Pin' });
    expect(save).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Note/), '   ');
    expect(save).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/Note/), 'Check the margin  ');
    await userEvent.click(save);
    expect(onSubmit).toHaveBeenCalledWith('Check the margin');
  });

  it('Escape and Cancel give up the pin; the server’s refusal shows on the field', async () => {
    const onCancel = vi.fn();
    renderWithApp(
      <PinNoteForm onSubmit={vi.fn()} onCancel={onCancel} error="At most 500 characters" />,
    );
    expect(screen.getByText('At most 500 characters')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Note/), '{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(2);
  });
});
