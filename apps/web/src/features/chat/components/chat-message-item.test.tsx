import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { applyLanguage } from '../../../lib/i18n';
import { renderWithApp } from '../../../test/render';
import { chatMessage } from '../test-fixtures';
import { ChatMessageItem, pinLink } from './chat-message-item';

describe('a chat message that announces a pin', () => {
  beforeEach(() => applyLanguage('en'));

  it('links to the case files with the viewer at that pin', () => {
    const message = chatMessage({ caseId: 42, text: 'Check 36', pin: { id: 7, attachmentId: 15 } });
    renderWithApp(<ChatMessageItem message={message} own={false} onDelete={() => {}} />);
    expect(screen.getByRole('link', { name: 'Open on the model' })).toHaveAttribute(
      'href',
      '/case/42?tab=attachments&file=15&pin=7',
    );
    expect(pinLink(42, { id: 7, attachmentId: 15 })).toBe('/case/42?tab=attachments&file=15&pin=7');
  });

  it.each([
    ['a message without a pin', chatMessage({ pin: null })],
    [
      'a deleted pin message',
      chatMessage({ deleted: true, text: '', pin: { id: 7, attachmentId: 15 } }),
    ],
  ])('%s has no link', (_name, message) => {
    renderWithApp(<ChatMessageItem message={message} own={false} onDelete={() => {}} />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
