import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RECEIPT_MAX_BYTES } from '@dentflow/domain';
import { clearSession, storeSession } from '../../../lib/api-client';
import { applyLanguage } from '../../../lib/i18n';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { completeProfile } from '../../../test/profiles';
import { renderWithApp } from '../../../test/render';
import { transactionView } from '../test-fixtures';
import { ReceiptDialog } from './receipt-dialog';

/** A file of `size` bytes without allocating it (only the size matters to the rules). */
function fileOfSize(name: string, size: number): File {
  const file = new File(['%PDF-1.4'], name, { type: 'application/pdf' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

/** Records what the dialog sends and answers when the test says so. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, payload: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(payload);
    this.onload?.();
  }
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const confirmButton = () => screen.getByRole('button', { name: 'Confirm' });
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });

describe('receipt dialog', () => {
  beforeEach(() => {
    applyLanguage('en');
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    mockFetch(() => ok(transactionView()));
  });
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
  });

  it('enables Confirm with a description or an allowed file, never with neither', async () => {
    renderWithApp(<ReceiptDialog opened transaction={transactionView()} onClose={() => {}} />);
    const user = userEvent.setup();
    expect(await screen.findByRole('dialog', { name: 'Send receipt' })).toBeInTheDocument();
    expect(confirmButton()).toBeDisabled();

    const description = screen.getByLabelText(/^Description/, { selector: 'textarea' });
    await user.type(description, '   ');
    expect(confirmButton()).toBeDisabled(); // blanks are no description
    await user.type(description, 'Pix paid from the clinic account');
    expect(confirmButton()).toBeEnabled();
    await user.clear(description);
    expect(confirmButton()).toBeDisabled();

    choose(fileOfSize('receipt.pdf', 120_000));
    expect(await screen.findByText('receipt.pdf')).toBeInTheDocument();
    expect(confirmButton()).toBeEnabled();
  });

  it('drops a file over the limit without a message, and states the limit for assistive tech', async () => {
    renderWithApp(<ReceiptDialog opened transaction={transactionView()} onClose={() => {}} />);
    await screen.findByRole('dialog', { name: 'Send receipt' });
    const hint = screen.getByText(/PDF or image, up to 3\.9 MB/);
    expect(hint).toHaveAttribute('aria-live', 'polite');

    choose(fileOfSize('huge.pdf', RECEIPT_MAX_BYTES + 1));
    expect(screen.queryByText('huge.pdf')).not.toBeInTheDocument();
    expect(confirmButton()).toBeDisabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Exactly at the limit is allowed.
    choose(fileOfSize('limit.pdf', RECEIPT_MAX_BYTES));
    expect(await screen.findByText('limit.pdf')).toBeInTheDocument();
    expect(confirmButton()).toBeEnabled();
  });

  it('sends multipart with the bearer token, shows progress, and closes on success', async () => {
    storeSession({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      profile: completeProfile(),
    });
    const onClose = vi.fn();
    renderWithApp(<ReceiptDialog opened transaction={transactionView()} onClose={onClose} />);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: 'Send receipt' });
    await user.type(screen.getByLabelText(/^Description/, { selector: 'textarea' }), 'Paid by Pix');
    choose(fileOfSize('receipt.pdf', 2_000));
    await user.click(confirmButton());

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const request = FakeXhr.sent[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/case/transaction/501/submitReceipt');
    expect(request.headers.Authorization).toBe('Bearer access-1');
    expect(request.body?.get('justification')).toBe('Paid by Pix');
    expect((request.body?.get('receipt') as File).name).toBe('receipt.pdf');

    request.progress(50, 100);
    const progress = await screen.findByRole('progressbar', { name: 'Sending the receipt' });
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '50'));

    request.respond(200, { obj: transactionView({ actions: [] }) });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(
      await screen.findByText('Receipt sent. It waits for authorization.'),
    ).toBeInTheDocument();
  });

  it("shows the server's translated error inside the dialog and keeps it open", async () => {
    const onClose = vi.fn();
    renderWithApp(<ReceiptDialog opened transaction={transactionView()} onClose={onClose} />);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: 'Send receipt' });
    await user.type(screen.getByLabelText(/^Description/, { selector: 'textarea' }), 'Paid');
    await user.click(confirmButton());
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(409, {
      error: "This action is not possible in the transaction's current state",
      code: 'TRANSACTION_STATE',
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      "This action is not possible in the transaction's current state",
    );
    expect(onClose).not.toHaveBeenCalled();
    expect(FakeXhr.sent[0]!.body?.get('receipt')).toBeNull();
  });
});
