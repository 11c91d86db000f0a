import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { DATE_INPUT_FORMATS, DAYJS_LOCALES, FIRST_DAY_OF_WEEK, parseTypedDate } from '../dates';

export type DateFieldProps = Omit<
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

/** The date field itself (see DateField, which loads it). */
export default function DateFieldInput({ value, onChange, min, max, ...props }: DateFieldProps) {
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
