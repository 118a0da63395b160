// A work order as an Excel workbook, with lib/util/spreadsheet.ts (SheetJS), in the document's
// language; lib/work-orders/document.ts loads this module at the first Excel request.
import { type Cell, xlsxOf } from '../util/spreadsheet';
import type { WorkOrderDocument } from './document';

export function workOrderWorkbook(doc: WorkOrderDocument): Buffer {
  const { texts } = doc;
  const rows: Cell[][] = [
    [doc.title],
    [texts.date, doc.date],
    [texts.campaign, doc.campaign],
    [doc.farms.length > 1 ? texts.farms : texts.farm, doc.farms.join(', ')],
    [doc.fields.length > 1 ? texts.fields : texts.field, doc.fields.join(', ')],
    [],
    [
      texts.labour,
      texts.type,
      texts.status,
      texts.date,
      texts.farm,
      texts.field,
      texts.crop,
      `${texts.surface} (ha)`,
      texts.details,
      texts.input,
      texts.dose,
      texts.unit,
      texts.total,
      texts.totalUnit,
      texts.observations,
    ],
  ];
  doc.labours.forEach((labour, index) => {
    const head = [
      index + 1,
      labour.type,
      labour.status,
      labour.date,
      labour.farm,
      labour.field,
      labour.crop,
      labour.surfaceHa,
      // the fields of its type, one "label: value" per line of the cell
      labour.details.map((d) => `${d.label}: ${d.value}`).join('\n') || null,
    ];
    const blank = [index + 1, null, null, null, null, null, null, null, null];
    if (!labour.inputs.length) rows.push([...head, null, null, null, null, null, labour.observations]);
    labour.inputs.forEach((input, i) => {
      rows.push([
        ...(i === 0 ? head : blank),
        input.name,
        input.dose,
        input.unit,
        input.total,
        input.totalUnit,
        i === 0 ? labour.observations : null,
      ]);
    });
  });
  rows.push([], [texts.recommendations]);
  for (const r of doc.recommendations) rows.push([r.label, r.value]);
  rows.push(
    [],
    [texts.notes, doc.notes ?? ''],
    [],
    [texts.signature, ''],
    [texts.printedName, ''],
    [texts.executionDate, ''],
  );
  return xlsxOf(rows, texts.workOrder.slice(0, 31), [8, 14, 12, 12, 22, 20, 14, 14, 36, 36, 10, 10, 12, 12, 30]);
}
