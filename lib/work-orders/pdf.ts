// A work order as a PDF (lib/work-orders/document.ts loads this module at the first PDF request),
// with pdfkit and embedded Noto Sans (pdfkit's built-in fonts cannot be loaded inside an ESM bundle,
// ../shared/LIBRARIES.md). Noto Sans comes in subsets (@fontsource): the Latin one (Spanish,
// Portuguese, English, °, €) in two weights, and, for what users type beyond it, the Latin Extended,
// Vietnamese, Greek and Cyrillic ones in the regular weight only (bold text in those scripts prints
// regular: ~55 KB of fonts instead of ~110). Each text is written in runs, each in the first font
// that has its characters (fontkit, the library pdfkit itself reads fonts with, tells which), so a
// name in any Latin, Greek or Cyrillic script prints, never blank.

import cyrillicFont from '@fontsource/noto-sans/files/noto-sans-cyrillic-400-normal.woff';
import greekFont from '@fontsource/noto-sans/files/noto-sans-greek-400-normal.woff';
import regularFont from '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff';
import boldFont from '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff';
import latinExtFont from '@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff';
import vietnameseFont from '@fontsource/noto-sans/files/noto-sans-vietnamese-400-normal.woff';
import { create as openFont } from 'fontkit';
import PDFDocument from 'pdfkit';
import { type DocumentLine, formatNumber, type WorkOrderDocument } from './document';
import { sfntOfWoff } from './woff';

type Face = 'regular' | 'bold';

/** The fonts, by the name each is registered under, with the code points each has a glyph for. */
const FONTS = (() => {
  const entries: Array<[string, Uint8Array]> = [
    ['regular', regularFont],
    ['bold', boldFont],
    ['latin-ext', latinExtFont],
    ['vietnamese', vietnameseFont],
    ['greek', greekFont],
    ['cyrillic', cyrillicFont],
  ];
  return entries.map(([name, bytes]) => {
    // unwrapped from WOFF once: fontkit would inflate its tables again at every glyph (./woff.ts)
    const buffer = sfntOfWoff(bytes);
    // read when a character first asks (most documents never need a fallback font)
    let font: ReturnType<typeof openFont> | undefined;
    return { name, buffer, has: (codePoint: number) => (font ??= openFont(buffer)).hasGlyphForCodePoint(codePoint) };
  });
})();
const FALLBACKS = FONTS.filter((f) => f.name !== 'regular' && f.name !== 'bold');

/** The font to write a character in: the face's own when it has it, else the first fallback that does. */
function fontFor(char: string, face: Face): string {
  const codePoint = char.codePointAt(0)!;
  const own = FONTS.find((f) => f.name === face)!;
  if (own.has(codePoint) || /\s/.test(char)) return face;
  return FALLBACKS.find((f) => f.has(codePoint))?.name ?? face;
}

/** A text in runs of one font each. */
export function runs(text: string, face: Face): Array<{ font: string; text: string }> {
  const out: Array<{ font: string; text: string }> = [];
  for (const char of text) {
    const font = fontFor(char, face);
    const last = out[out.length - 1];
    if (last?.font === font) last.text += char;
    else out.push({ font, text: char });
  }
  return out;
}

interface Span {
  text: string;
  face: Face;
}

/** Writes spans of text as one paragraph (pdfkit's continued text), each character in a font that has it. */
function write(
  pdf: PDFKit.PDFDocument,
  spans: Span[],
  at: { x?: number; y?: number; options?: PDFKit.Mixins.TextOptions } = {},
): void {
  const parts = spans.flatMap((span) => runs(span.text, span.face)).filter((p) => p.text.length);
  if (!parts.length) parts.push({ font: 'regular', text: '' });
  parts.forEach((part, index) => {
    const options = { ...at.options, continued: index < parts.length - 1 };
    pdf.font(part.font);
    if (index === 0 && at.x !== undefined) pdf.text(part.text, at.x, at.y, options);
    else pdf.text(part.text, options);
  });
}

const MARGIN = 50;
const COLUMN_WIDTHS = [
  { width: 205 },
  { width: 60, right: true },
  { width: 65 },
  { width: 75, right: true },
  { width: 90 },
];

export function workOrderPdf(doc: WorkOrderDocument): Promise<Buffer> {
  const { texts } = doc;
  const number = (value: number) => formatNumber(doc.locale, value);
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // no default font ('' skips pdfkit's Helvetica, which an ESM bundle cannot load): the registered
    // fonts are then each opened once. With a font given here, pdfkit never caches the registered
    // name of that same font and reopens it at every run of text (fontkit parses its tables again):
    // that was two thirds of the time of a work order at its maximum.
    font: '',
    info: { Title: doc.title, Producer: 'Surco' },
  });
  for (const font of FONTS) pdf.registerFont(font.name, font.buffer);
  pdf.font('regular');
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const width = pdf.page.width - 2 * MARGIN;
  const heading = (text: string, size = 13) => {
    pdf.moveDown(0.6).fontSize(size);
    write(pdf, [{ text, face: 'bold' }], { x: MARGIN, options: { width } });
    pdf.moveDown(0.2);
  };
  const line = ({ label, value }: DocumentLine) => {
    pdf.fontSize(10);
    write(
      pdf,
      [
        { text: `${label}: `, face: 'bold' },
        { text: value, face: 'regular' },
      ],
      { x: MARGIN, options: { width } },
    );
  };

  pdf.fontSize(18);
  write(pdf, [{ text: doc.title, face: 'bold' }], { options: { width } });
  pdf.moveDown(0.4);
  line({ label: texts.date, value: doc.date });
  line({ label: texts.campaign, value: doc.campaign });
  line({ label: doc.farms.length > 1 ? texts.farms : texts.farm, value: doc.farms.join(', ') || '—' });
  line({ label: doc.fields.length > 1 ? texts.fields : texts.field, value: doc.fields.join(', ') || '—' });

  doc.labours.forEach((labour, index) => {
    if (pdf.y > pdf.page.height - 200) pdf.addPage();
    heading(`${index + 1}. ${labour.type}: ${labour.field} (${labour.farm})`);
    line({ label: texts.status, value: labour.status });
    line({ label: texts.date, value: labour.date });
    if (labour.crop) line({ label: texts.crop, value: labour.crop });
    line({ label: texts.surface, value: `${number(labour.surfaceHa)} ha` });
    for (const detail of labour.details) line(detail);
    if (labour.observations) line({ label: texts.observations, value: labour.observations });
    if (labour.inputs.length) {
      pdf.moveDown(0.3);
      row(pdf, [texts.input, texts.dose, texts.unit, texts.total, texts.totalUnit], 'bold');
      for (const input of labour.inputs)
        row(pdf, [input.name, number(input.dose), input.unit, number(input.total), input.totalUnit], 'regular');
    }
  });

  heading(texts.recommendations);
  if (doc.recommendations.length) for (const r of doc.recommendations) line(r);
  else {
    pdf.fontSize(10);
    write(pdf, [{ text: texts.noRecommendations, face: 'regular' }]);
  }
  heading(texts.notes);
  pdf.fontSize(10);
  write(pdf, [{ text: doc.notes || '—', face: 'regular' }], { options: { width } });

  if (pdf.y > pdf.page.height - 150) pdf.addPage();
  pdf.moveDown(3);
  const y = pdf.y;
  const third = width / 3;
  for (const [i, label] of [texts.signature, texts.printedName, texts.executionDate].entries()) {
    const x = MARGIN + i * third;
    pdf
      .moveTo(x + 5, y)
      .lineTo(x + third - 15, y)
      .stroke();
    pdf.fontSize(9);
    write(pdf, [{ text: label, face: 'regular' }], {
      x: x + 5,
      y: y + 4,
      options: { width: third - 20, align: 'center' },
    });
  }
  pdf.end();
  return done;
}

function row(pdf: PDFKit.PDFDocument, cells: string[], face: Face): void {
  if (pdf.y > pdf.page.height - MARGIN - 30) pdf.addPage();
  const top = pdf.y;
  let x = MARGIN;
  let bottom = top;
  pdf.fontSize(9);
  cells.forEach((cell, i) => {
    const column = COLUMN_WIDTHS[i]!;
    write(pdf, [{ text: cell, face }], {
      x: x + 2,
      y: top,
      options: { width: column.width - 4, align: column.right ? 'right' : 'left' },
    });
    bottom = Math.max(bottom, pdf.y);
    x += column.width;
  });
  pdf
    .moveTo(MARGIN, bottom + 2)
    .lineTo(x, bottom + 2)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke()
    .strokeColor('#000000');
  pdf.x = MARGIN;
  pdf.y = bottom + 5;
}
