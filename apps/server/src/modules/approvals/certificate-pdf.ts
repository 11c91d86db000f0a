import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { languageTag, translate, type ApprovalRecord, type Language } from '@dentflow/domain';

/**
 * The approval certificate as a one-page A4 PDF in the record's language (pdf-lib, pure JS).
 * The standard fonts encode WinAnsi only: any other character is written without its accents, or
 * as '?', so no name can break the document.
 */

export interface CertificateContent {
  record: ApprovalRecord;
  patientName: string;
  verificationUrl: string;
  /** PNG of the approved plan, when one could be drawn. */
  thumbnail: Buffer | null;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);

/** Letters whose stroke is part of the letter, so decomposing them leaves nothing to keep. */
const STROKED: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i' };

/** The text with every character the font cannot encode replaced by a close one. */
function writable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text) {
    if (supported.has(char.codePointAt(0)!)) {
      out += char;
      continue;
    }
    // Decomposed: a letter with a mark the font lacks becomes the bare letter; odd spaces a space.
    const plain = [...(STROKED[char] ?? char).normalize('NFKD')]
      .filter((c) => supported.has(c.codePointAt(0)!))
      .join('');
    out += plain || (/\s/.test(char) ? ' ' : '?');
  }
  return out;
}

/** The record's time in its language's date format, in UTC (the same on every server). */
export function certificateDate(iso: string, language: Language): string {
  const date = new Intl.DateTimeFormat(languageTag(language), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso));
  return `${date} ${translate(language, 'cases', 'certificate.timeZone')}`;
}

export async function certificatePdf(content: CertificateContent): Promise<Uint8Array> {
  const { record } = content;
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(record.language, 'cases', `certificate.${key}`, params);
  const pdf = await PDFDocument.create();
  pdf.setTitle(writable(await pdf.embedFont(StandardFonts.Helvetica), t('title')));
  pdf.setCreator('Dentflow');
  pdf.setCreationDate(new Date(record.approvedAt));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const page: PDFPage = pdf.addPage([A4.width, A4.height]);
  const width = A4.width - 2 * MARGIN;
  let y = A4.height - MARGIN;

  const lines = (text: string, font: PDFFont, size: number) => {
    const words = writable(font, text).split(/\s+/).filter(Boolean);
    const out: string[] = [];
    let line = '';
    for (const word of words) {
      const next = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(next, size) > width) {
        out.push(line);
        line = word;
      } else line = next;
    }
    if (line) out.push(line);
    return out;
  };
  const write = (text: string, font = regular, size = 10.5, color = INK) => {
    for (const line of lines(text, font, size)) {
      page.drawText(line, { x: MARGIN, y, size, font, color });
      y -= size * 1.4;
    }
  };
  const field = (label: string, value: string) => {
    write(label, bold, 9, MUTED);
    write(value || '-');
    y -= 4;
  };

  write(t('title'), bold, 20);
  y -= 6;
  write(t('intro'), regular, 9.5, MUTED);
  y -= 10;

  if (content.thumbnail) {
    const image = await pdf.embedPng(content.thumbnail);
    const side = 150;
    page.drawImage(image, { x: A4.width - MARGIN - side, y: y - side, width: side, height: side });
    page.drawText(writable(regular, t('thumbnail')), {
      x: A4.width - MARGIN - side,
      y: y - side - 11,
      size: 8,
      font: regular,
      color: MUTED,
    });
  }
  field(t('case'), `#${record.caseId}`);
  field(t('patient'), content.patientName);
  field(t('services'), record.services.map((s) => s.name).join(', '));
  field(t('approvedBy'), record.approver.name);
  field(t('approvedAt'), certificateDate(record.approvedAt, record.language));
  field(t('text'), record.text);
  y = Math.min(y, A4.height - MARGIN - 260);

  write(t('files'), bold, 12);
  y -= 2;
  for (const file of record.files) {
    write(
      `${file.fileName} · ${t('version', { version: file.version })} · ${t('size', { size: file.size })}`,
    );
    write(`${t('hash')} ${file.sha256}`, mono, 8.5);
    y -= 6;
  }
  y -= 8;
  field(t('code'), record.certificateCode);
  field(t('verify'), content.verificationUrl);
  return pdf.save();
}
