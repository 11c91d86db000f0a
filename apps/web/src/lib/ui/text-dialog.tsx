import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { approveDialogSchema, TEXT_DIALOG_DEFAULT_LIMIT } from '@dentflow/domain';
import { translateErrorKey } from '../i18n';
import { CountedTextarea } from './counted-textarea';

/** The spec's text dialog (request modification, review): a required text with a counter. */
export function TextDialog(props: {
  opened: boolean;
  title: string;
  label: string;
  submitLabel: string;
  limit?: number;
  loading?: boolean;
  /** Extra fields above the text (e.g. a review reason). */
  children?: React.ReactNode;
  onSubmit: (text: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const limit = props.limit ?? TEXT_DIALOG_DEFAULT_LIMIT;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const result = approveDialogSchema({ approving: false, limit }).safeParse({ text });
    if (!result.success) {
      setError(translateErrorKey(result.error.issues[0]?.message ?? 'validation.required'));
      return;
    }
    props.onSubmit(result.data.text);
  };
  const close = () => {
    setText('');
    setError(null);
    props.onClose();
  };

  return (
    <Modal opened={props.opened} onClose={close} title={props.title} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {props.children}
          <CountedTextarea
            label={props.label}
            value={text}
            onChange={(value) => {
              setText(value);
              setError(null);
            }}
            limit={limit}
            error={error}
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={props.loading}>
              {t('cases:dialogs.cancel')}
            </Button>
            <Button type="submit" loading={props.loading}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
