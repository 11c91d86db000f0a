import { useState } from 'react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import type { Language } from '@dentflow/domain';
import { parseTypedDate } from '../dates';
import { applyLanguage } from '../i18n';
import { findDateField } from '../../test/date-field';
import { renderWithApp } from '../../test/render';
import { DateField } from './date-field';

describe('parseTypedDate', () => {
  it.each([
    { text: '25/11/2026', format: 'DD/MM/YYYY', day: '2026-11-25' },
    { text: ' 5/1/2027 ', format: 'DD/MM/YYYY', day: '2027-01-05' },
    { text: '11/25/2026', format: 'MM/DD/YYYY', day: '2026-11-25' },
    // Not a whole, real day yet: nothing is chosen while typing.
    { text: '25/11/2', format: 'DD/MM/YYYY', day: null },
    { text: '25/11/26', format: 'DD/MM/YYYY', day: null },
    { text: '31/02/2026', format: 'DD/MM/YYYY', day: null },
    { text: '11/25/2026', format: 'DD/MM/YYYY', day: null },
    { text: '2026-11-25', format: 'DD/MM/YYYY', day: null },
  ])('$text as $format', ({ text, format, day }) => {
    expect(parseTypedDate(text, format)).toBe(day);
  });
});

function Field({ initial, onChange }: { initial: string; onChange: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <DateField
      label="Birth date"
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('DateField', () => {
  afterAll(() => applyLanguage('en'));

  it.each<{ language: Language; shown: string; placeholder: string }>([
    { language: 'ptBR', shown: '25/11/2026', placeholder: 'dd/mm/aaaa' },
    { language: 'es', shown: '25/11/2026', placeholder: 'dd/mm/aaaa' },
    { language: 'en', shown: '11/25/2026', placeholder: 'mm/dd/yyyy' },
  ])('shows a day in the $language format, whatever the browser', async (row) => {
    await applyLanguage(row.language);
    renderWithApp(<Field initial="2026-11-25" onChange={() => {}} />);
    const input = await findDateField('Birth date');
    expect(input).toHaveValue(row.shown);
    expect(input).toHaveAttribute('placeholder', row.placeholder);
  });

  it('takes a day typed in Portuguese as YYYY-MM-DD, and clears to empty', async () => {
    await applyLanguage('ptBR');
    const onChange = vi.fn();
    renderWithApp(<Field initial="" onChange={onChange} />);
    const input = await findDateField('Birth date');
    await userEvent.type(input, '03/02/2027');
    expect(onChange).toHaveBeenLastCalledWith('2027-02-03');
    await userEvent.keyboard('{Escape}');
    await userEvent.tab();
    expect(input).toHaveValue('03/02/2027');

    await userEvent.clear(input);
    expect(onChange).toHaveBeenLastCalledWith('');
  });
});
