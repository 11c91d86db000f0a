import { useState } from 'react';
import {
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  UnstyledButton,
} from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PIN_NOTE_MAX_LENGTH, type Pin } from '@dentflow/domain';
import { formatDate } from '../../../lib/format-date';

/**
 * The pins of the model beside the 3D view: note, author, time, and Resolve or Reopen where the
 * caller may (`mayResolve`, the domain's rule); choosing one flies the camera to it.
 */
export function PinList(props: {
  pins: readonly Pin[];
  selectedId: number | null;
  mayResolve: (pin: Pin) => boolean;
  onSelect: (pin: Pin) => void;
  onResolve: (pin: Pin, resolved: boolean) => void;
  busyId?: number | null;
}) {
  const { t } = useTranslation();
  if (props.pins.length === 0) {
    return (
      <Text size="sm" c="dimmed" p="sm">
        {t('files:pins.none')}
      </Text>
    );
  }
  return (
    <ScrollArea.Autosize mah="100%">
      <Stack gap="xs" p="xs" component="ol" style={{ listStyle: 'none', margin: 0 }}>
        {props.pins.map((pin, index) => {
          const resolved = pin.resolvedAt !== null;
          return (
            <Paper
              key={pin.id}
              component="li"
              withBorder
              p="xs"
              radius="sm"
              data-testid="pin-item"
              data-pin-id={pin.id}
              data-resolved={resolved ? 'true' : undefined}
              bg={props.selectedId === pin.id ? 'var(--mantine-primary-color-light)' : undefined}
              style={{ opacity: resolved ? 0.6 : 1 }}
            >
              <Stack gap={4}>
                <UnstyledButton
                  onClick={() => props.onSelect(pin)}
                  aria-label={t('files:pins.goTo', { number: index + 1 })}
                >
                  <Group gap={6} wrap="nowrap" align="flex-start">
                    <IconMapPin size={16} style={{ flexShrink: 0 }} />
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {pin.note}
                    </Text>
                  </Group>
                </UnstyledButton>
                <Group gap={6} justify="space-between" wrap="nowrap">
                  <Text size="xs" c="dimmed" truncate>
                    {pin.author.name} · {formatDate(pin.createdAt, true)}
                  </Text>
                  {resolved && (
                    <Badge size="xs" color="gray" variant="light">
                      {t('files:pins.resolved')}
                    </Badge>
                  )}
                </Group>
                {props.mayResolve(pin) && (
                  <Group justify="flex-end">
                    <Button
                      size="compact-xs"
                      variant="light"
                      color={resolved ? 'gray' : 'teal'}
                      loading={props.busyId === pin.id}
                      onClick={() => props.onResolve(pin, !resolved)}
                    >
                      {resolved ? t('files:pins.reopen') : t('files:pins.resolve')}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </ScrollArea.Autosize>
  );
}

/** The note of a new pin, over the 3D view where the model was tapped. */
export function PinNoteForm(props: {
  onSubmit: (note: string) => void;
  onCancel: () => void;
  submitting?: boolean;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const trimmed = note.trim();
  return (
    <Paper
      withBorder
      shadow="md"
      p="sm"
      radius="md"
      w={320}
      maw="calc(100% - 24px)"
      role="dialog"
      aria-label={t('files:pins.newTitle')}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) props.onSubmit(trimmed);
        }}
      >
        <Stack gap="xs">
          <Textarea
            label={t('files:pins.noteLabel')}
            value={note}
            maxLength={PIN_NOTE_MAX_LENGTH}
            autosize
            minRows={2}
            autoFocus
            required
            error={props.error ?? undefined}
            onChange={(event) => setNote(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') props.onCancel();
            }}
          />
          <Text size="xs" c="dimmed" ta="right" aria-live="polite">
            {t('files:pins.counter', { length: note.length, limit: PIN_NOTE_MAX_LENGTH })}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={props.onCancel}>
              {t('files:common.cancel')}
            </Button>
            <Button size="xs" type="submit" disabled={!trimmed} loading={props.submitting}>
              {t('files:pins.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
