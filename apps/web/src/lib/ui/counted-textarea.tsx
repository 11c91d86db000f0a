import { Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { charactersLeft, TEXT_DIALOG_DEFAULT_LIMIT } from '@dentflow/domain';

/** The spec's text area with a character counter (default limit 100). */
export function CountedTextarea(props: {
  label: string;
  /** Says what to write, and why when it is required. */
  description?: string;
  value: string;
  onChange: (value: string) => void;
  limit?: number;
  error?: string | null;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const limit = props.limit ?? TEXT_DIALOG_DEFAULT_LIMIT;
  const left = charactersLeft(props.value, limit);
  return (
    <div>
      <Textarea
        label={props.label}
        description={props.description}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        maxLength={limit}
        autosize
        minRows={3}
        required={props.required}
        error={props.error}
      />
      <Text size="xs" c={left <= 10 ? 'orange' : 'dimmed'} ta="right" aria-live="polite">
        {t('cases:dialogs.charactersLeft', { n: left })}
      </Text>
    </div>
  );
}
