// The work order an operator takes to the field (spec 3, GET /api/work_orders/<uuid>/download):
// title, date, farms and fields, each labour with its type, surface and inputs (dose, unit,
// total), the recommendations, the notes and room for a signature, written as a PDF
// (lib/work-orders/pdf.ts) or an Excel workbook (lib/work-orders/workbook.ts). A request asks for
// one of them: each writer is loaded at the first request of its type (ADR 0008), so an Excel
// download never loads pdfkit and its fonts (~45 ms at the first PDF) nor a PDF one SheetJS (~14 ms).

import { inputTotal, LABOUR_TYPE_NAMES, STATUS_NAMES, totalUnit } from '../labours/model';
import { onFirstUse } from '../util/first-use';
import { recommendationType } from './model';
import type { WorkOrderView } from './service';

export interface DocumentLabour {
  type: string;
  status: string;
  date: string;
  farm: string;
  field: string;
  crop: string | null;
  surfaceHa: number;
  observations: string;
  inputs: Array<{ name: string; dose: number; unit: string; total: number; totalUnit: string }>;
}

export interface WorkOrderDocument {
  title: string;
  date: string;
  campaign: string;
  farms: string[];
  fields: string[];
  labours: DocumentLabour[];
  recommendations: Array<{ name: string; value: string }>;
  notes: string | null;
}

/** DD/MM/YYYY, as an operator reads a date. */
const dayMonthYear = (date: string) => date.split('-').reverse().join('/');

export function documentOf({ order, labours }: WorkOrderView): WorkOrderDocument {
  const biennial = labours.some((l) => l.biennial);
  return {
    title: order.name ? `Orden de trabajo: ${order.name}` : 'Orden de trabajo',
    date: dayMonthYear(order.date),
    campaign: biennial ? `${order.yeargroup}/${order.yeargroup + 1}` : String(order.yeargroup),
    farms: [...new Set(labours.map((l) => l.farm.name))],
    fields: [...new Set(labours.map((l) => l.field.name))],
    labours: labours.map(({ labour, field, farm, rotation, inputs }) => ({
      type: LABOUR_TYPE_NAMES[labour.typeId] ?? String(labour.typeId),
      status: STATUS_NAMES[labour.status] ?? String(labour.status),
      date: dayMonthYear(labour.date),
      farm: farm.name,
      field: field.name,
      crop: rotation?.cropName ?? null,
      surfaceHa: labour.surface,
      observations: labour.observations,
      inputs: labour.inputs.map((line) => ({
        name: inputs.get(line.inputUuid)?.name ?? line.name,
        dose: line.dose,
        unit: line.unit,
        total: inputTotal(line.dose, line.unit, labour.surface),
        totalUnit: totalUnit(line.unit),
      })),
    })),
    recommendations: (order.recommendations ?? []).map((r) => ({
      name: recommendationType(r.typeId)?.name ?? String(r.typeId),
      value: r.value,
    })),
    notes: order.notes,
  };
}

const pdfWriter = /* @__PURE__ */ onFirstUse(() => import('./pdf'));
const workbookWriter = /* @__PURE__ */ onFirstUse(() => import('./workbook'));

/** The file of each `?type=`: its content type, extension and writer (loaded at its first use). */
export const WORK_ORDER_FILES = {
  pdf: {
    contentType: 'application/pdf',
    extension: 'pdf',
    write: async (doc: WorkOrderDocument) => (await pdfWriter()).workOrderPdf(doc),
  },
  excel: {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: 'xlsx',
    write: async (doc: WorkOrderDocument) => (await workbookWriter()).workOrderWorkbook(doc),
  },
} as const;
