// The work order an operator takes to the field (spec 3, GET /api/work_orders/<uuid>/download):
// title, date, farms and fields, each labour with its type, surface, its type's own fields (what
// to do for an "other" labour, the variety, seed rate and row width of a sowing, the application
// type, the harvest figures) and its inputs (dose, unit, total), the recommendations, the notes and
// room for a signature, in the user's locale (es, en, pt, as notifications are), written as a PDF
// (lib/work-orders/pdf.ts) or an Excel workbook (lib/work-orders/workbook.ts). A request asks for
// one of them: each writer is loaded at the first request of its type (ADR 0008), so an Excel
// download never loads pdfkit and its fonts (~45 ms at the first PDF) nor a PDF one SheetJS (~14 ms).

import type { Amount, Labour } from '../labours/model';
import { inputTotal, LABOUR_TYPE, totalUnit } from '../labours/model';
import type { Locale } from '../platform/model';
import { onFirstUse } from '../util/first-use';
import type { WorkOrderView } from './service';

/** A label and its value, in the document's language. */
export interface DocumentLine {
  label: string;
  value: string;
}

export interface DocumentLabour {
  type: string;
  status: string;
  date: string;
  farm: string;
  field: string;
  crop: string | null;
  surfaceHa: number;
  observations: string;
  /** The fields of its labour type that are set, labelled (spec 3, Labour: "Application adds", ...). */
  details: DocumentLine[];
  inputs: Array<{ name: string; dose: number; unit: string; total: number; totalUnit: string }>;
}

/** Every fixed text of the document, in one language. */
export interface DocumentTexts {
  workOrder: string;
  date: string;
  campaign: string;
  farm: string;
  farms: string;
  field: string;
  fields: string;
  labour: string;
  type: string;
  status: string;
  crop: string;
  surface: string;
  observations: string;
  details: string;
  input: string;
  dose: string;
  unit: string;
  total: string;
  totalUnit: string;
  recommendations: string;
  noRecommendations: string;
  notes: string;
  signature: string;
  printedName: string;
  executionDate: string;
}

export interface WorkOrderDocument {
  locale: Locale;
  texts: DocumentTexts;
  title: string;
  date: string;
  campaign: string;
  farms: string[];
  fields: string[];
  labours: DocumentLabour[];
  recommendations: DocumentLine[];
  notes: string | null;
}

/** Every fixed text of the document, by language. */
export const DOCUMENT_TEXTS: Record<Locale, DocumentTexts> = {
  es: {
    workOrder: 'Orden de trabajo',
    date: 'Fecha',
    campaign: 'Campaña',
    farm: 'Establecimiento',
    farms: 'Establecimientos',
    field: 'Lote',
    fields: 'Lotes',
    labour: 'Labor',
    type: 'Tipo',
    status: 'Estado',
    crop: 'Cultivo',
    surface: 'Superficie',
    observations: 'Observaciones',
    details: 'Detalles',
    input: 'Insumo',
    dose: 'Dosis',
    unit: 'Unidad',
    total: 'Total',
    totalUnit: 'Unidad total',
    recommendations: 'Recomendaciones',
    noRecommendations: 'Sin recomendaciones.',
    notes: 'Notas',
    signature: 'Firma del responsable',
    printedName: 'Aclaración',
    executionDate: 'Fecha de ejecución',
  },
  en: {
    workOrder: 'Work order',
    date: 'Date',
    campaign: 'Season',
    farm: 'Farm',
    farms: 'Farms',
    field: 'Field',
    fields: 'Fields',
    labour: 'Labour',
    type: 'Type',
    status: 'Status',
    crop: 'Crop',
    surface: 'Area',
    observations: 'Observations',
    details: 'Details',
    input: 'Input',
    dose: 'Dose',
    unit: 'Unit',
    total: 'Total',
    totalUnit: 'Total unit',
    recommendations: 'Recommendations',
    noRecommendations: 'No recommendations.',
    notes: 'Notes',
    signature: 'Signature of the person in charge',
    printedName: 'Printed name',
    executionDate: 'Date carried out',
  },
  pt: {
    workOrder: 'Ordem de serviço',
    date: 'Data',
    campaign: 'Safra',
    farm: 'Fazenda',
    farms: 'Fazendas',
    field: 'Talhão',
    fields: 'Talhões',
    labour: 'Operação',
    type: 'Tipo',
    status: 'Situação',
    crop: 'Cultura',
    surface: 'Área',
    observations: 'Observações',
    details: 'Detalhes',
    input: 'Insumo',
    dose: 'Dose',
    unit: 'Unidade',
    total: 'Total',
    totalUnit: 'Unidade total',
    recommendations: 'Recomendações',
    noRecommendations: 'Sem recomendações.',
    notes: 'Notas',
    signature: 'Assinatura do responsável',
    printedName: 'Nome',
    executionDate: 'Data de execução',
  },
};

/** Names of the labour types, statuses, application and seeding types, recommendation types, and type-field labels. */
const NAMES: Record<
  Locale,
  {
    labourTypes: Record<number, string>;
    statuses: Record<number, string>;
    applicationTypes: Record<number, string>;
    seedingTypes: Record<number, string>;
    recommendationTypes: Record<number, string>;
    fields: Record<string, string>;
    yes: string;
  }
> = {
  es: {
    labourTypes: { 1: 'Aplicación', 2: 'Cosecha', 3: 'Siembra', 4: 'Otra labor' },
    statuses: { 1: 'Planificada', 2: 'Ejecutada', 3: 'Cancelada' },
    applicationTypes: { 1: 'Terrestre', 2: 'Aérea', 3: 'Quimigación (por riego)', 4: 'Tratamiento de semillas' },
    seedingTypes: { 1: 'Siembra directa', 2: 'Siembra convencional', 3: 'Siembra al voleo', 4: 'Trasplante' },
    recommendationTypes: {
      1: 'Temperatura',
      2: 'Velocidad de avance',
      3: 'Dirección del viento',
      4: 'Velocidad del viento',
      5: 'Humedad',
      6: 'Profundidad',
    },
    fields: {
      name: 'Labor a realizar',
      application_type_id: 'Tipo de aplicación',
      end_cycle: 'Cierra el ciclo del cultivo',
      variety: 'Variedad',
      seeding_type_id: 'Tipo de siembra',
      seed_rate: 'Densidad de siembra',
      actual_seed_rate: 'Densidad lograda',
      row_width: 'Distancia entre hileras',
      seed_total: 'Semilla total',
      expected_yield: 'Rendimiento esperado',
      harvested_yield: 'Rendimiento cosechado',
      humidity: 'Humedad',
      quality: 'Calidad',
      layer: 'Capa',
    },
    yes: 'Sí',
  },
  en: {
    labourTypes: { 1: 'Application', 2: 'Harvest', 3: 'Sowing', 4: 'Other labour' },
    statuses: { 1: 'Planned', 2: 'Executed', 3: 'Cancelled' },
    applicationTypes: { 1: 'Ground', 2: 'Aerial', 3: 'Chemigation (through irrigation)', 4: 'Seed treatment' },
    seedingTypes: { 1: 'No-till sowing', 2: 'Conventional sowing', 3: 'Broadcast sowing', 4: 'Transplanting' },
    recommendationTypes: {
      1: 'Temperature',
      2: 'Travel speed',
      3: 'Wind direction',
      4: 'Wind speed',
      5: 'Humidity',
      6: 'Depth',
    },
    fields: {
      name: 'Task',
      application_type_id: 'Application type',
      end_cycle: 'Ends the crop cycle',
      variety: 'Variety',
      seeding_type_id: 'Sowing type',
      seed_rate: 'Seed rate',
      actual_seed_rate: 'Achieved seed rate',
      row_width: 'Row width',
      seed_total: 'Total seed',
      expected_yield: 'Expected yield',
      harvested_yield: 'Harvested yield',
      humidity: 'Moisture',
      quality: 'Quality',
      layer: 'Layer',
    },
    yes: 'Yes',
  },
  pt: {
    labourTypes: { 1: 'Aplicação', 2: 'Colheita', 3: 'Plantio', 4: 'Outra operação' },
    statuses: { 1: 'Planejada', 2: 'Executada', 3: 'Cancelada' },
    applicationTypes: { 1: 'Terrestre', 2: 'Aérea', 3: 'Quimigação (por irrigação)', 4: 'Tratamento de sementes' },
    seedingTypes: { 1: 'Plantio direto', 2: 'Plantio convencional', 3: 'Semeadura a lanço', 4: 'Transplante' },
    recommendationTypes: {
      1: 'Temperatura',
      2: 'Velocidade de deslocamento',
      3: 'Direção do vento',
      4: 'Velocidade do vento',
      5: 'Umidade',
      6: 'Profundidade',
    },
    fields: {
      name: 'Operação a realizar',
      application_type_id: 'Tipo de aplicação',
      end_cycle: 'Encerra o ciclo da cultura',
      variety: 'Cultivar',
      seeding_type_id: 'Tipo de plantio',
      seed_rate: 'Densidade de semeadura',
      actual_seed_rate: 'Densidade obtida',
      row_width: 'Espaçamento entre linhas',
      seed_total: 'Semente total',
      expected_yield: 'Produtividade esperada',
      harvested_yield: 'Produtividade colhida',
      humidity: 'Umidade',
      quality: 'Qualidade',
      layer: 'Camada',
    },
    yes: 'Sim',
  },
};

const NUMBER_LOCALE: Record<Locale, string> = { es: 'es-AR', en: 'en-US', pt: 'pt-BR' };

const NUMBER_FORMATS = new Map<Locale, Intl.NumberFormat>();

/** A number as the document's language writes it (decimal comma in es and pt); one formatter per language. */
export const formatNumber = (locale: Locale, value: number) => {
  let format = NUMBER_FORMATS.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(NUMBER_LOCALE[locale], { maximumFractionDigits: 3 });
    NUMBER_FORMATS.set(locale, format);
  }
  return format.format(value);
};

/** DD/MM/YYYY, as an operator reads a date. */
const dayMonthYear = (date: string) => date.split('-').reverse().join('/');

const isAmount = (value: unknown): value is Amount =>
  Boolean(value) && typeof value === 'object' && typeof (value as Amount).value === 'number';

/** The type fields of a labour that are set, labelled in the document's language, in the spec's order. */
function detailsOf(labour: Labour, locale: Locale): DocumentLine[] {
  const names = NAMES[locale];
  const d = labour.details;
  const lines: DocumentLine[] = [];
  const add = (key: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined && value !== '') lines.push({ label: names.fields[key]!, value });
  };
  const amount = (value: unknown) =>
    isAmount(value) ? `${formatNumber(locale, value.value)} ${value.unit}`.trim() : undefined;
  const withUnit = (value: unknown, unit: unknown) =>
    typeof value === 'number'
      ? `${formatNumber(locale, value)} ${typeof unit === 'string' ? unit : ''}`.trim()
      : undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  switch (labour.typeId) {
    case LABOUR_TYPE.APPLICATION:
      add('application_type_id', names.applicationTypes[Number(d.application_type_id)]);
      break;
    case LABOUR_TYPE.HARVEST:
      add('expected_yield', withUnit(d.expected_yield, d.expected_unit));
      add('harvested_yield', withUnit(d.harvested_yield, d.harvested_unit));
      add('humidity', typeof d.humidity === 'number' ? `${formatNumber(locale, d.humidity)} %` : undefined);
      add('quality', text(d.quality));
      add('layer', text(d.layer));
      break;
    case LABOUR_TYPE.SOWING:
      add('variety', text(d.variety_name) ?? (typeof d.variety_id === 'number' ? `#${d.variety_id}` : undefined));
      add('seeding_type_id', names.seedingTypes[Number(d.seeding_type_id)]);
      add('seed_rate', amount(d.seed_rate));
      add('actual_seed_rate', amount(d.actual_seed_rate));
      add('row_width', amount(d.row_width));
      add('seed_total', amount(d.seed_total));
      break;
    case LABOUR_TYPE.OTHER:
      add('name', text(d.name));
      break;
  }
  if (d.end_cycle === true) add('end_cycle', names.yes);
  return lines;
}

export function documentOf({ order, labours }: WorkOrderView, locale: Locale): WorkOrderDocument {
  const texts = DOCUMENT_TEXTS[locale];
  const names = NAMES[locale];
  const biennial = labours.some((l) => l.biennial);
  return {
    locale,
    texts,
    title: order.name ? `${texts.workOrder}: ${order.name}` : texts.workOrder,
    date: dayMonthYear(order.date),
    campaign: biennial ? `${order.yeargroup}/${order.yeargroup + 1}` : String(order.yeargroup),
    farms: [...new Set(labours.map((l) => l.farm.name))],
    fields: [...new Set(labours.map((l) => l.field.name))],
    labours: labours.map(({ labour, field, farm, rotation, inputs }) => ({
      type: names.labourTypes[labour.typeId] ?? String(labour.typeId),
      status: names.statuses[labour.status] ?? String(labour.status),
      date: dayMonthYear(labour.date),
      farm: farm.name,
      field: field.name,
      crop: rotation?.cropName ?? null,
      surfaceHa: labour.surface,
      observations: labour.observations,
      details: detailsOf(labour, locale),
      inputs: labour.inputs.map((line) => ({
        name: inputs.get(line.inputUuid)?.name ?? line.name,
        dose: line.dose,
        unit: line.unit,
        total: inputTotal(line.dose, line.unit, labour.surface),
        totalUnit: totalUnit(line.unit),
      })),
    })),
    recommendations: (order.recommendations ?? []).map((r) => ({
      label: names.recommendationTypes[r.typeId] ?? String(r.typeId),
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
