import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_DIALOG_DEFAULT_LIMIT } from '@dentflow/domain';

/** Text-area dialog: what should change, with a character counter (limit 100). */
export function RequestChangeDialog(props: {
  opened: boolean;
  onClose: () => void;
  onSubmit: (text: string) => void;
  submitting?: boolean;
  limit?: number;
}) {
  const { t } = useTranslation();
  const limit = props.limit ?? TEXT_DIALOG_DEFAULT_LIMIT;
  const [text, setText] = useState('');
  const trimmed = text.trim();
  const close = () => {
    setText('');
    props.onClose();
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t('files:requestChange.title')} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) props.onSubmit(trimmed);
        }}
      >
        <Stack>
          <Textarea
            label={t('files:requestChange.label')}
            description={t('files:requestChange.hint')}
            value={text}
            maxLength={limit}
            autosize
            minRows={3}
            data-autofocus
            required
            onChange={(event) => setText(event.currentTarget.value.slice(0, limit))}
          />
          <Text size="xs" c={text.length >= limit ? 'red' : 'dimmed'} ta="right" aria-live="polite">
            {t('files:requestChange.counter', { length: text.length, limit })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('files:common.cancel')}
            </Button>
            <Button type="submit" disabled={!trimmed} loading={props.submitting}>
              {t('files:requestChange.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
