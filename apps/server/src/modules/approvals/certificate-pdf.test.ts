import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '@dentflow/domain';
import { pdfText } from '../../../test/support/pdf-text';
import { certificateDate, certificatePdf } from './certificate-pdf';

const SHA = 'a'.repeat(64);
const record = (patch: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  id: 1,
  caseId: 42,
  approvedAt: '2026-03-05T14:30:00.000Z',
  approver: { id: 7, name: 'Dra. Conceição Araújo' },
  address: '127.0.0.1',
  text: 'Aprovado',
  language: 'ptBR',
  certificateCode: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01',
  files: [{ attachmentId: 3, chainId: 2, version: 2, fileName: 'guia.stl', size: 90, sha256: SHA }],
  services: [{ id: 5, name: 'Guia cirúrgico' }],
  ...patch,
});

describe('certificatePdf', () => {
  it('writes the record in its language, accents kept', async () => {
    const text = await pdfText(
      await certificatePdf({
        record: record(),
        patientName: 'João Gonçalves',
        verificationUrl: 'http://localhost:3000/certificate/ABCD-EFGH-JKMN-PQRS-TVWX-YZ01',
        thumbnail: null,
      }),
    );
    for (const expected of [
      'Certificado de aprovação',
      'João Gonçalves',
      'Dra. Conceição Araújo',
      'Guia cirúrgico',
      SHA,
      'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01',
      '5 de março de 2026',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it.each([
    ['Nguyễn Thị Ánh', 'Nguyen Thi Ánh'],
    ['Łukasz Żółw', 'Lukasz Zólw'],
    ['李小龙 Lee', '??? Lee'],
  ])('a name outside WinAnsi (%s) is written as %s', async (name, written) => {
    const text = await pdfText(
      await certificatePdf({
        record: record({ language: 'en', approver: { id: 7, name } }),
        patientName: 'X',
        verificationUrl: 'http://x/certificate/c',
        thumbnail: null,
      }),
    );
    expect(text).toContain(written);
    expect(text).toContain('Approval certificate');
  });
});

describe('certificateDate', () => {
  it.each([
    ['en', 'March 5, 2026'],
    ['es', '5 de marzo de 2026'],
    ['ptBR', '5 de março de 2026'],
  ] as const)('%s: %s', (language, date) => {
    expect(certificateDate('2026-03-05T14:30:00.000Z', language)).toContain(date);
    expect(certificateDate('2026-03-05T14:30:00.000Z', language)).toMatch(/UTC$/);
  });
});
