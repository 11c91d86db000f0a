import { Text, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { parseMoney, type Currency } from '@dentflow/domain';
import { currencySymbol, moneyInputText } from '../../products/components/product-form-values';

export { moneyInputText };

/**
 * The shop's money input: the amount typed in the currency's own separators beside its symbol;
 * leaving the field rewrites a readable amount in the currency's format.
 */
export function MoneyField(props: {
  label: string;
  /** In a table the column says what it is: the label is only read out. */
  labelHidden?: boolean;
  description?: string | undefined;
  currency: Currency;
  inputProps: GetInputPropsReturnType;
  onFormat: (text: string) => void;
  'data-testid'?: string | undefined;
}) {
  const { currency, inputProps } = props;
  return (
    <TextInput
      label={props.labelHidden ? undefined : props.label}
      aria-label={props.labelHidden ? props.label : undefined}
      description={props.description}
      inputMode="decimal"
      autoComplete="off"
      placeholder={moneyInputText(0, currency)}
      data-testid={props['data-testid']}
      leftSection={
        <Text size="sm" c="dimmed" aria-hidden>
          {currencySymbol(currency)}
        </Text>
      }
      {...inputProps}
      onBlur={(event: React.FocusEvent<HTMLInputElement>) => {
        const amount = parseMoney(event.currentTarget.value, currency);
        if (amount !== null) props.onFormat(moneyInputText(amount, currency));
        (inputProps.onBlur as ((e: React.FocusEvent<HTMLInputElement>) => void) | undefined)?.(
          event,
        );
      }}
    />
  );
}

/** The example an invalid amount's message shows (`1.234,56` / `1,234.56`). */
export const moneyExample = (currency: Currency) => moneyInputText(123456, currency);
