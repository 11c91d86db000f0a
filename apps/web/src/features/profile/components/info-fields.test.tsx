import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyDataInfo } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { renderWithApp } from '../../../test/render';
import { InfoFields, useInfoForm } from './info-fields';

function Harness({ ownData }: { ownData?: boolean }) {
  const form = useInfoForm(emptyDataInfo('en'));
  return <InfoFields form={form} ownData={ownData} />;
}

describe('info fields', () => {
  beforeEach(() => applyLanguage('en'));

  it('masks a number typed as a free document once its type becomes CPF', async () => {
    renderWithApp(<Harness />);
    const user = userEvent.setup();
    const documentInput = screen.getByLabelText('Document number');
    await user.type(documentInput, '52998224725');
    expect(documentInput).toHaveValue('52998224725');
    await user.click(screen.getByRole('combobox', { name: 'Document type' }));
    await user.click(screen.getByRole('option', { name: 'CPF', hidden: true }));
    expect(documentInput).toHaveValue('529.982.247-25');
  });

  it('lets the browser fill in the phone only on the signed-in user’s own data', () => {
    const { unmount } = renderWithApp(<Harness ownData />);
    expect(screen.getByLabelText('Mobile phone')).toHaveAttribute('autocomplete', 'tel-national');
    unmount();
    renderWithApp(<Harness />);
    expect(screen.getByLabelText('Mobile phone')).not.toHaveAttribute('autocomplete');
  });
});
