import { lazy, Suspense } from 'react';
import { TextInput } from '@mantine/core';
import type { DateFieldProps } from './date-field-input';

// The calendar and dayjs's locales load with the first date field shown, not with every page
// that has a form with one (the case page's initial script has a budget).
const DateFieldInput = lazy(() => import('./date-field-input'));

/**
 * A day typed or picked in the interface language's format (25/11/2026 in Portuguese and Spanish,
 * 11/25/2026 in English): a native date input would follow the browser's locale instead. Works
 * with `form.getInputProps` (value and change as 'YYYY-MM-DD' strings, '' when cleared).
 */
export function DateField(props: DateFieldProps) {
  const { label, description, required, disabled, size } = props;
  return (
    <Suspense
      fallback={
        <TextInput
          label={label}
          description={description}
          required={required}
          disabled={disabled}
          size={size}
          readOnly
          aria-busy
        />
      }
    >
      <DateFieldInput {...props} />
    </Suspense>
  );
}
