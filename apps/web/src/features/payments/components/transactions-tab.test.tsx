import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CaseDetail, CaseTransactions } from '@dentflow/domain';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok, type RecordedCall } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { caseDetail } from '../../cases/test-fixtures';
import { breakdown, caseTransactions, transactionView } from '../test-fixtures';
import { paymentNavigation } from './pay-panel';
import { CaseTransactionsTab } from './transactions-tab';

const LIST_PATH = '/case/42/transactions';

function serve(
  list: CaseTransactions,
  extra: (call: RecordedCall) => Response | null = () => null,
) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === LIST_PATH) return ok(list);
    return ok(completeProfile());
  });
}

const renderTab = (
  status: CaseDetail['caseStatus'] = 'checkingout',
  overrides: Partial<CaseDetail> = {},
) =>
  renderWithApp(
    <CaseTransactionsTab
      caseDetail={caseDetail({ caseStatus: status, caseCurrency: 'BRL', ...overrides })}
    />,
  );

const actionLabels = (card: HTMLElement) => {
  const group = within(card).queryByTestId('transaction-actions');
  return group
    ? within(group)
        .getAllByRole('button')
        .map((button) => button.textContent)
    : [];
};

describe('case transactions tab', () => {
  beforeEach(() => applyLanguage('en'));
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("shows each transaction's buttons exactly from its `actions`", async () => {
    serve(
      caseTransactions({
        items: [
          transactionView({
            id: 3,
            actions: ['submitReceipt', 'setInvoiceCustomer', 'refresh', 'cancel'],
          }),
          transactionView({
            id: 2,
            paymentMethod: 'physical',
            actions: ['authReceipt', 'checkPhysicalPayment', 'authCancel', 'setInvoiceNumber'],
          }),
          transactionView({ id: 1, paymentStatus: 'paid', paidAt: '2026-11-21T10:00:00.000Z' }),
        ],
      }),
    );
    renderTab();
    const owner = await screen.findByTestId('transaction-3');
    expect(actionLabels(owner)).toEqual([
      'Send receipt',
      'Invoice details',
      'Refresh status',
      'Request cancellation',
    ]);
    expect(actionLabels(screen.getByTestId('transaction-2'))).toEqual([
      'Authorize receipt',
      'Deny receipt',
      'Confirm card payment',
      'Authorize cancellation',
      'Deny cancellation',
      'Set invoice number',
    ]);
    const paid = screen.getByTestId('transaction-1');
    expect(actionLabels(paid)).toEqual([]);
    expect(within(paid).getByText('Paid')).toBeInTheDocument();
    // Without 'pay' there is no payment panel.
    expect(screen.queryByTestId('pix-code')).not.toBeInTheDocument();
    expect(screen.queryByTestId('pay-button')).not.toBeInTheDocument();
    // Amounts in the transaction's currency, formatted like the shop.
    expect(within(owner).getByTestId('transaction-total')).toHaveTextContent('R$ 1.234,56');
    expect(within(owner).getByTestId('transaction-shipping')).toHaveTextContent('R$ 0,00');
    expect(within(owner).getByText('Awaiting payment')).toBeInTheDocument();
  });

  it('Pix: the QR code, the read-only code and a copy button; the code is fetched when missing', async () => {
    const { calls } = serve(
      caseTransactions({
        items: [
          transactionView({ id: 8, pixCode: '00020126PIXCODE', actions: ['pay', 'submitReceipt'] }),
          transactionView({ id: 9, pixCode: null, actions: ['pay'] }),
        ],
      }),
      (call) =>
        call.path === '/case/transaction/9/paymentLink'
          ? ok({ paymentLink: null, pixCode: '00020126FETCHED' })
          : null,
    );
    renderTab();
    const user = userEvent.setup();
    const card = await screen.findByTestId('transaction-8');
    expect(within(card).getByRole('img', { name: 'Pix QR code' })).toBeInTheDocument();
    const code = within(card).getByRole('textbox', { name: 'Pix copy-and-paste code' });
    expect(code).toHaveValue('00020126PIXCODE');
    expect(code).toHaveAttribute('readonly');
    await user.click(within(card).getByRole('button', { name: 'Copy code' }));
    expect(await within(card).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('00020126PIXCODE');
    // The transaction already carried its code: no extra call for it.
    expect(calls.some((call) => call.path === '/case/transaction/8/paymentLink')).toBe(false);

    const other = screen.getByTestId('transaction-9');
    expect(
      await within(other).findByRole('textbox', { name: 'Pix copy-and-paste code' }),
    ).toHaveValue('00020126FETCHED');
  });

  it('PayPal: asks for the payment link and sends the browser there', async () => {
    const assign = vi.spyOn(paymentNavigation, 'assign').mockImplementation(() => {});
    const { calls } = serve(
      caseTransactions({
        items: [
          transactionView({ id: 4, paymentMethod: 'paypal', currency: 'USD', actions: ['pay'] }),
        ],
      }),
      (call) =>
        call.path === '/case/transaction/4/paymentLink'
          ? ok({ paymentLink: 'https://paypal.example/approve?token=T1', pixCode: null })
          : null,
    );
    renderTab();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay with PayPal' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://paypal.example/approve?token=T1'),
    );
    expect(calls.filter((call) => call.path === '/case/transaction/4/paymentLink')).toHaveLength(1);
    expect(screen.getByTestId('transaction-total')).toHaveTextContent('U$ 1,234.56');
  });

  it('PayPal: a refused link shows the translated error and stays on the page', async () => {
    const assign = vi.spyOn(paymentNavigation, 'assign').mockImplementation(() => {});
    serve(
      caseTransactions({
        items: [transactionView({ id: 4, paymentMethod: 'paypal', actions: ['pay'] })],
      }),
      (call) =>
        call.path === '/case/transaction/4/paymentLink'
          ? fail(409, 'PAYMENT_METHOD_UNAVAILABLE', 'This payment method is not available')
          : null,
    );
    renderTab();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pay with PayPal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This payment method is not available',
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('authorizes a receipt after the confirmation and reads the list again', async () => {
    const { calls } = serve(
      caseTransactions({
        items: [
          transactionView({
            id: 5,
            actions: ['authReceipt'],
            receipt: {
              id: 1,
              justification: 'Paid by Pix',
              fileName: 'receipt.pdf',
              fileSize: 2048,
              fileUrl: '/files/receipt?sig=1',
              submittedBy: { id: 7, displayName: 'Ana Souza' },
              submittedAt: '2026-11-21T10:00:00.000Z',
              authUser: null,
              authAt: null,
            },
          }),
        ],
      }),
      (call) =>
        call.path === '/case/transaction/5/authReceipt'
          ? ok(transactionView({ id: 5, paymentStatus: 'paid' }))
          : null,
    );
    renderTab();
    const user = userEvent.setup();
    const card = await screen.findByTestId('transaction-5');
    expect(within(card).getByText('Paid by Pix')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /receipt\.pdf/ })).toHaveAttribute(
      'href',
      '/files/receipt?sig=1',
    );
    expect(within(card).getByText('Waiting for authorization')).toBeInTheDocument();
    const listReads = () => calls.filter((call) => call.path === LIST_PATH).length;
    const before = listReads();

    await user.click(within(card).getByRole('button', { name: 'Authorize receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Authorize the receipt?' });
    await user.click(within(dialog).getByRole('button', { name: 'Authorize receipt' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')).toMatchObject({
        path: '/case/transaction/5/authReceipt',
        body: { approve: true },
      }),
    );
    expect(await screen.findByText('Receipt authorized')).toBeInTheDocument();
    await waitFor(() => expect(listReads()).toBeGreaterThan(before));
  });

  it('shows a pending cancel with its reason and NOT AUTHORIZED YET', async () => {
    serve(
      caseTransactions({
        items: [
          transactionView({
            id: 6,
            cancel: {
              reasonId: 2,
              description: 'Bone too thin',
              requestUser: { id: 7, displayName: 'Ana Souza' },
              requestAt: '2026-11-21T10:00:00.000Z',
              authUser: null,
              authAt: null,
            },
          }),
        ],
      }),
    );
    renderTab();
    const card = await screen.findByTestId('transaction-6');
    expect(within(card).getByText('Reason: Cannot be planned')).toBeInTheDocument();
    expect(within(card).getByText('Bone too thin')).toBeInTheDocument();
    expect(within(card).getByTestId('cancel-pending')).toHaveTextContent('NOT AUTHORIZED YET');
  });

  it('a new case without transactions points to the shop', async () => {
    serve(caseTransactions());
    renderTab('new');
    expect(await screen.findByText('No transactions yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the shop' })).toHaveAttribute('href', '/shop');
  });

  it('the owner of a new case without transactions goes to the shop for this case', async () => {
    serve(caseTransactions());
    renderTab('new', { can: ['edit', 'addService', 'order'] });
    expect(await screen.findByRole('link', { name: 'Go to the shop' })).toHaveAttribute(
      'href',
      '/shop?caseId=42',
    );
  });

  it('shows what paying the remaining services will charge, then the method and the button', async () => {
    const remaining = breakdown({
      currency: 'BRL',
      lines: [
        {
          cartProductId: 1,
          name: 'Guide planning',
          quantity: 1,
          planningPrice: 45_000,
          manufacturePrice: 0,
          sleevesPrice: 0,
          comboDiscount: 0,
          lineDiscount: 0,
        },
        {
          cartProductId: 2,
          name: 'Printed guide',
          quantity: 2,
          planningPrice: 0,
          manufacturePrice: 70_000,
          sleevesPrice: 0,
          comboDiscount: 0,
          lineDiscount: 0,
        },
      ],
      couponDiscount: 0,
      shippingFee: 3_500,
      total: 118_500,
    });
    const { calls } = serve(
      caseTransactions({
        unpaidServiceIds: [12, 13],
        paymentMethods: ['pix', 'paypal'],
        remaining,
      }),
      (call) =>
        call.path === '/case/transaction/42/new'
          ? ok(transactionView({ id: 77, actions: ['pay'] }))
          : null,
    );
    renderTab();
    const user = userEvent.setup();
    const block = await screen.findByTestId('pay-remaining');
    // What it will charge, line by line in the case's currency, before anything is created.
    const charged = within(block).getByTestId('remaining-breakdown');
    expect(charged).toHaveTextContent('Guide planning');
    expect(charged).toHaveTextContent('R$ 450,00');
    expect(charged).toHaveTextContent('Printed guide × 2');
    expect(charged).toHaveTextContent('R$ 700,00');
    expect(charged).toHaveTextContent('Shipping');
    expect(charged).toHaveTextContent('R$ 35,00');
    expect(within(block).getByTestId('remaining-total')).toHaveTextContent('R$ 1.185,00');
    const create = within(block).getByRole('button', { name: 'Create payment' });
    // The breakdown comes first, then the method and the button.
    expect(charged.compareDocumentPosition(create) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    expect(create).toBeDisabled();
    await user.click(within(block).getByLabelText(/^Payment method/, { selector: 'input' }));
    expect(
      screen.getAllByRole('option', { hidden: true }).map((option) => option.textContent),
    ).toEqual(['Pix', 'PayPal (card)']);
    await user.click(screen.getByRole('option', { name: 'Pix', hidden: true }));
    await user.click(create);
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')).toMatchObject({
        path: '/case/transaction/42/new',
        body: { paymentMethod: 'pix' },
      }),
    );
  });

  it('offers nothing to pay when the server could not price the remaining services', async () => {
    serve(
      caseTransactions({
        items: [transactionView({ id: 1 })],
        unpaidServiceIds: [12],
        paymentMethods: ['pix'],
        remaining: null,
      }),
    );
    renderTab();
    expect(await screen.findByTestId('transaction-1')).toBeInTheDocument();
    expect(screen.queryByTestId('pay-remaining')).toBeNull();
  });

  it('an error while loading offers a retry', async () => {
    let attempts = 0;
    mockFetch((call) => {
      if (call.path !== LIST_PATH) return ok(completeProfile());
      attempts += 1;
      return attempts === 1
        ? fail(403, 'FORBIDDEN', 'You may not see this')
        : ok(caseTransactions({ items: [transactionView({ id: 1 })] }));
    });
    renderTab();
    const user = userEvent.setup();
    expect(await screen.findByText('You may not see this')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('transaction-1')).toBeInTheDocument();
  });
});
