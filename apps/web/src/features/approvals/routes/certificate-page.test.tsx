import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { applyLanguage } from '../../../lib/i18n';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { renderRoutes } from '../../../test/render';
import { CertificatePage } from './certificate-page';

const CODE = 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01';
const SHA = 'b'.repeat(64);

function serve() {
  return mockFetch((call) =>
    call.path === `/certificate/${CODE}`
      ? ok({
          match: true,
          approvedAt: '2026-11-02T10:00:00.000Z',
          files: [{ version: 2, sha256: SHA }],
        })
      : fail(404, 'CERTIFICATE_NOT_FOUND', 'No certificate matches this code'),
  );
}

const render = (path: string) =>
  renderRoutes([{ path: '/certificate/:code?', element: <CertificatePage /> }], path);

describe('certificate page', () => {
  beforeEach(() => applyLanguage('en'));

  it('says a code matches, when, and the files with their SHA-256', async () => {
    serve();
    render(`/certificate/${CODE.toLowerCase()}`);
    const match = await screen.findByTestId('certificate-match');
    expect(match).toHaveTextContent(/Valid certificate, approved on/);
    expect(match).toHaveTextContent('1 file, with its SHA-256:');
    expect(match).toHaveTextContent('Version 2');
    expect(match).toHaveTextContent(SHA);
  });

  it('says when no certificate matches, and checks a typed code', async () => {
    const { calls } = serve();
    render('/certificate/0000-0000-0000-0000-0000-0000');
    expect(await screen.findByTestId('certificate-none')).toHaveTextContent(
      'No certificate matches this code.',
    );
    const input = screen.getByLabelText('Certificate code');
    await userEvent.clear(input);
    await userEvent.type(input, 'too short');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByText(/A code has 24 letters and digits/)).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, CODE.replace(/-/g, ' '));
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByTestId('certificate-match')).toBeInTheDocument();
    expect(calls.some((call) => call.path === `/certificate/${CODE}`)).toBe(true);
  });
});
