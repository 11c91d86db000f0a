import { expect, it } from 'vitest';
import { createUser } from './support/cases-fixtures';
import { pdfBytes, placeOrder, receiptCall } from './support/payments-fixtures';
import { startTestApp } from './support/test-app';

function form(parts: { name: string; file?: string; bytes: Buffer }[]) {
  const b = 'XbX';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${p.name}"${p.file ? `; filename="${p.file}"\r\nContent-Type: application/pdf` : ''}\r\n\r\n`), p.bytes, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${b}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${b}` } };
}
it('probe', async () => {
  const t = await startTestApp();
  try {
    const owner = await createUser(t.app, ['doctor'], { language: 'ptBR' });
    const order = await placeOrder(t.app, owner, 'pix', { complete: false });
    const r = receiptCall(t.app);
    const show = async (label: string, f: ReturnType<typeof form>) => {
      const res = await r(owner, order.transactionId, f);
      console.log(label, res.statusCode, res.body.slice(0, 200));
    };
    await show('two files', form([{ name: 'receipt', file: 'a.pdf', bytes: pdfBytes() }, { name: 'receipt', file: 'b.pdf', bytes: pdfBytes() }]));
    await show('many fields', form(Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, bytes: Buffer.from('x') }))));
    await show('truncated', { payload: Buffer.from('--XbX\r\nContent-Disposition: form-data; name="justification"\r\n\r\nabc'), headers: { 'content-type': 'multipart/form-data; boundary=XbX' } });
    await show('no boundary', { payload: Buffer.from('abc'), headers: { 'content-type': 'multipart/form-data' } });
    await show('other file field', form([{ name: 'other', file: 'a.pdf', bytes: pdfBytes() }]));
    expect(1).toBe(1);
  } finally {
    await t.close();
  }
});
