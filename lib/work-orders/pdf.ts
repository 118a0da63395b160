// A work order as a PDF (lib/work-orders/document.ts loads this module at the first PDF request),
// with pdfkit and embedded Noto Sans (its Latin subset, 17 KB a weight: Spanish and Portuguese
// accents, ñ, °, €; pdfkit's built-in fonts cannot be loaded inside an ESM bundle,
// ../shared/LIBRARIES.md).

import regularFont from '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff';
import boldFont from '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff';
import PDFDocument from 'pdfkit';
import type { WorkOrderDocument } from './document';

const number = (value: number) => value.toLocaleString('es-AR', { maximumFractionDigits: 3 });

const MARGIN = 50;
const COLUMNS = [
  { title: 'Insumo', width: 205 },
  { title: 'Dosis', width: 60, right: true },
  { title: 'Unidad', width: 65 },
  { title: 'Total', width: 75, right: true },
  { title: 'Unidad total', width: 90 },
];

export function workOrderPdf(doc: WorkOrderDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    font: Buffer.from(regularFont) as unknown as string,
    info: { Title: doc.title, Producer: 'Surco' },
  });
  pdf.registerFont('regular', Buffer.from(regularFont));
  pdf.registerFont('bold', Buffer.from(boldFont));
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const width = pdf.page.width - 2 * MARGIN;
  const heading = (text: string, size = 13) =>
    pdf.moveDown(0.6).font('bold').fontSize(size).text(text, MARGIN, undefined, { width }).moveDown(0.2);
  const line = (label: string, value: string) =>
    pdf
      .font('bold')
      .fontSize(10)
      .text(`${label}: `, MARGIN, undefined, { continued: true })
      .font('regular')
      .text(value);

  pdf.font('bold').fontSize(18).text(doc.title, { width });
  pdf.moveDown(0.4);
  line('Fecha', doc.date);
  line('Campaña', doc.campaign);
  line(doc.farms.length > 1 ? 'Establecimientos' : 'Establecimiento', doc.farms.join(', ') || '—');
  line(doc.fields.length > 1 ? 'Lotes' : 'Lote', doc.fields.join(', ') || '—');

  doc.labours.forEach((labour, index) => {
    if (pdf.y > pdf.page.height - 200) pdf.addPage();
    heading(`${index + 1}. ${labour.type}: ${labour.field} (${labour.farm})`);
    line('Estado', labour.status);
    line('Fecha', labour.date);
    if (labour.crop) line('Cultivo', labour.crop);
    line('Superficie', `${number(labour.surfaceHa)} ha`);
    if (labour.observations) line('Observaciones', labour.observations);
    if (labour.inputs.length) {
      pdf.moveDown(0.3);
      row(
        pdf,
        COLUMNS.map((c) => c.title),
        'bold',
      );
      for (const input of labour.inputs)
        row(pdf, [input.name, number(input.dose), input.unit, number(input.total), input.totalUnit], 'regular');
    }
  });

  heading('Recomendaciones');
  if (doc.recommendations.length) for (const r of doc.recommendations) line(r.name, r.value);
  else pdf.font('regular').fontSize(10).text('Sin recomendaciones.');
  heading('Notas');
  pdf
    .font('regular')
    .fontSize(10)
    .text(doc.notes || '—', { width });

  if (pdf.y > pdf.page.height - 150) pdf.addPage();
  pdf.moveDown(3);
  const y = pdf.y;
  const third = width / 3;
  for (const [i, label] of ['Firma del responsable', 'Aclaración', 'Fecha de ejecución'].entries()) {
    const x = MARGIN + i * third;
    pdf
      .moveTo(x + 5, y)
      .lineTo(x + third - 15, y)
      .stroke();
    pdf
      .font('regular')
      .fontSize(9)
      .text(label, x + 5, y + 4, { width: third - 20, align: 'center' });
  }
  pdf.end();
  return done;
}

function row(pdf: PDFKit.PDFDocument, cells: string[], font: 'regular' | 'bold'): void {
  if (pdf.y > pdf.page.height - MARGIN - 30) pdf.addPage();
  const top = pdf.y;
  let x = MARGIN;
  let bottom = top;
  pdf.font(font).fontSize(9);
  cells.forEach((cell, i) => {
    const column = COLUMNS[i]!;
    pdf.text(cell, x + 2, top, { width: column.width - 4, align: column.right ? 'right' : 'left' });
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
