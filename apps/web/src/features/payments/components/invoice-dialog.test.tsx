import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InvoiceView } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile, profileWithoutAddress } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { InvoiceDialog } from './invoice-dialog';

const VALID_CPF = '52998224725';
const WRONG_CHECK_DIGIT_CPF = '52998224724';

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const save = () => screen.getByTestId('invoice-save');

describe('invoice dialog', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('keeps Save disabled with an invalid CPF and enables it with a valid one (address from the profile)', async () => {
    mockFetch(() => ok(completeProfile()));
    const onSubmit = vi.fn();
    renderWithApp(<InvoiceDialog opened invoice={null} onSubmit={onSubmit} onClose={() => {}} />);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: 'Invoice details' });
    // Prefilled from the caller's profile.
    await waitFor(() => expect(field(/^Name on the invoice/)).toHaveValue('Ana Souza'));
    expect(field(/^Zip code/)).toHaveValue('01310100');
    expect(save()).toBeDisabled(); // no document yet

    const documentField = field(/^Document$|^Document \*/);
    await user.type(documentField, WRONG_CHECK_DIGIT_CPF);
    expect(documentField).toHaveValue('529.982.247-24'); // the CPF mask
    expect(save()).toBeDisabled();
    await user.tab();
    expect(await screen.findByText('Invalid document number')).toBeInTheDocument();

    await user.clear(documentField);
    await user.type(documentField, VALID_CPF);
    expect(documentField).toHaveValue('529.982.247-25');
    expect(save()).toBeEnabled();
    expect(screen.queryByText('Invalid document number')).not.toBeInTheDocument();

    await user.click(save());
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        customerName: 'Ana Souza',
        documentType: 'CPF',
        document: '529.982.247-25',
        email: 'ana@example.com',
        address: expect.objectContaining({ zipCode: '01310100', city: 'São Paulo' }),
      }),
    );
  });

  it('needs the address too: a valid CPF alone does not enable Save', async () => {
    const { calls } = mockFetch((call) =>
      call.path.startsWith('/shop/queryAddress/')
        ? ok({
            zipCode: '01310100',
            country: 'Brasil',
            state: 'SP',
            city: 'São Paulo',
            address: 'Avenida Paulista',
            complement: '',
          })
        : ok(profileWithoutAddress()),
    );
    renderWithApp(<InvoiceDialog opened invoice={null} onSubmit={() => {}} onClose={() => {}} />);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: 'Invoice details' });
    await waitFor(() => expect(field(/^Name on the invoice/)).toHaveValue('Ana Souza'));
    await user.type(field(/^Document$|^Document \*/), VALID_CPF);
    expect(save()).toBeDisabled();

    // The shared address fields: the zip lookup fills the rest.
    await user.type(field(/^Zip code/), '01310100');
    await waitFor(() => expect(field(/^City/)).toHaveValue('São Paulo'));
    expect(calls.some((call) => call.path === '/shop/queryAddress/01310100')).toBe(true);
    expect(save()).toBeEnabled();
  });

  it('starts from the stored invoice, masking a CNPJ', async () => {
    mockFetch(() => ok(completeProfile()));
    const invoice: InvoiceView = {
      customerName: 'Clínica Sorriso Ltda',
      documentType: 'CNPJ',
      document: '11222333000181',
      email: '',
      address: {
        zipCode: '01310100',
        country: 'Brasil',
        state: 'SP',
        city: 'São Paulo',
        address: 'Avenida Paulista, 2000',
        complement: '',
      },
      invoiceNumber: null,
    };
    renderWithApp(
      <InvoiceDialog opened invoice={invoice} onSubmit={() => {}} onClose={() => {}} />,
    );
    await screen.findByRole('dialog', { name: 'Invoice details' });
    expect(field(/^Name on the invoice/)).toHaveValue('Clínica Sorriso Ltda');
    expect(field(/^Document$|^Document \*/)).toHaveValue('11.222.333/0001-81');
    expect(save()).toBeEnabled();
  });
});
