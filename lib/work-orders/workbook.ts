// A work order as an Excel workbook, with lib/util/spreadsheet.ts (SheetJS); lib/work-orders/document.ts
// loads this module at the first Excel request.
import { type Cell, xlsxOf } from '../util/spreadsheet';
import type { WorkOrderDocument } from './document';

export function workOrderWorkbook(doc: WorkOrderDocument): Buffer {
  const rows: Cell[][] = [
    [doc.title],
    ['Fecha', doc.date],
    ['Campaña', doc.campaign],
    [doc.farms.length > 1 ? 'Establecimientos' : 'Establecimiento', doc.farms.join(', ')],
    [doc.fields.length > 1 ? 'Lotes' : 'Lote', doc.fields.join(', ')],
    [],
    [
      'Labor',
      'Tipo',
      'Estado',
      'Fecha',
      'Establecimiento',
      'Lote',
      'Cultivo',
      'Superficie (ha)',
      'Insumo',
      'Dosis',
      'Unidad',
      'Total',
      'Unidad total',
      'Observaciones',
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
    ];
    if (!labour.inputs.length) rows.push([...head, null, null, null, null, null, labour.observations]);
    labour.inputs.forEach((input, i) => {
      rows.push([
        ...(i === 0 ? head : [index + 1, null, null, null, null, null, null, null]),
        input.name,
        input.dose,
        input.unit,
        input.total,
        input.totalUnit,
        i === 0 ? labour.observations : null,
      ]);
    });
  });
  rows.push([], ['Recomendaciones']);
  for (const r of doc.recommendations) rows.push([r.name, r.value]);
  rows.push(
    [],
    ['Notas', doc.notes ?? ''],
    [],
    ['Firma del responsable', ''],
    ['Aclaración', ''],
    ['Fecha de ejecución', ''],
  );
  return xlsxOf(rows, 'Orden de trabajo', [8, 14, 12, 12, 22, 20, 14, 14, 36, 10, 10, 12, 12, 30]);
}
