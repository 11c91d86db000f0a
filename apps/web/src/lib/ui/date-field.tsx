import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { DATE_INPUT_FORMATS, DAYJS_LOCALES, FIRST_DAY_OF_WEEK, parseTypedDate } from '../dates';

type DateFieldProps = Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'locale' | 'dateParser'
> & {
  /** The day as 'YYYY-MM-DD'; '' for none. */
  value?: string | undefined;
  onChange: (value: string) => void;
  /** The first and last days that may be chosen ('YYYY-MM-DD'). */
  min?: string | undefined;
  max?: string | undefined;
};

/**
 * A day typed or picked in the interface language's format (25/11/2026 in Portuguese and Spanish,
 * 11/25/2026 in English): a native date input would follow the browser's locale instead. Works
 * with `form.getInputProps` (value and change as 'YYYY-MM-DD' strings, '' when cleared).
 */
export function DateField({ value, onChange, min, max, ...props }: DateFieldProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const format = DATE_INPUT_FORMATS[language];
  return (
    <DateInput
      placeholder={t('dateField.placeholder')}
      clearable={!props.required && !props.readOnly}
      {...props}
      value={value || null}
      onChange={(day) => onChange(day ?? '')}
      minDate={min || undefined}
      maxDate={max || undefined}
      valueFormat={format}
      locale={DAYJS_LOCALES[language]}
      firstDayOfWeek={FIRST_DAY_OF_WEEK[language]}
      dateParser={(text) => parseTypedDate(text, format)}
    />
  );
}
