import { Input, SegmentedControl } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, type Currency } from '@dentflow/domain';

/**
 * The currency a case is charged in, as a choice between the supported currencies (the intake,
 * the checkout's new case, the case page while the currency may still change).
 */
export function CurrencyPicker({
  value,
  onChange,
  label,
  description,
  disabled = false,
}: {
  value: Currency;
  onChange: (currency: Currency) => void;
  label?: string;
  description?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <Input.Wrapper
      label={label ?? t('cases:currency.label')}
      description={description}
      labelProps={{ id: labelId }}
    >
      <SegmentedControl
        mt={4}
        aria-labelledby={labelId}
        value={value}
        onChange={(next) => onChange(next as Currency)}
        disabled={disabled}
        data={CURRENCIES.map((currency) => ({
          value: currency,
          label: t(`domain:currencies.${currency}`),
        }))}
      />
    </Input.Wrapper>
  );
}
