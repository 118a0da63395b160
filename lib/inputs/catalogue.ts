// The master input catalogue (spec 3, Inputs): products every user sees beside their personal
// inputs. Kept in code like the platform's crops: it changes with releases, not with requests.
// Active principles, EIQ field-use values and concentrations are those of the real products.
import { createHash } from 'node:crypto';

export interface Component {
  id: number;
  uuid: string;
  name: string;
  activePrinciple: boolean;
  /** Environmental Impact Quotient of the active ingredient (Cornell), or null. */
  eiq: number | null;
  /** Percentage in the product. */
  concentration: number;
}

export interface InputRecord {
  id: number;
  uuid: string;
  name: string;
  /** The owner's id for a personal input; null for the master catalogue. */
  ownerId: number | null;
  code: string | null;
  /** ISO 3166 alpha-2, or null (any country). */
  country: string | null;
  company: string | null;
  type: string | null;
  state: string | null;
  density: number | null;
  composition: unknown;
  components: Component[];
}

/** Ids of master inputs stay below this; personal inputs are numbered from it. */
export const PERSONAL_INPUT_ID_OFFSET = 100_000;

/** A stable uuid from a name (the catalogue's uuids never change between releases). */
export function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(`surco:${seed}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type Part = [name: string, concentration: number, eiq?: number | null, activePrinciple?: boolean];
type Entry = [
  id: number,
  name: string,
  code: string,
  country: string | null,
  company: string,
  type: string,
  state: string,
  density: number | null,
  parts: Part[],
];

const FERTILIZER = 'Fertilizante';
const ORGANIC = 'Fertilizante orgánico';
const HERBICIDE = 'Herbicida';
const FUNGICIDE = 'Fungicida';
const INSECTICIDE = 'Insecticida';
const SEED = 'Semilla';
const ADJUVANT = 'Coadyuvante';

const ENTRIES: Entry[] = [
  [1, 'Urea granulada 46-0-0', '1001', 'AR', 'Profertil', FERTILIZER, 'Sólido', 0.76, [['Nitrógeno (N)', 46]]],
  [
    2,
    'Fosfato monoamónico (MAP) 11-52-0',
    '1002',
    'AR',
    'Bunge',
    FERTILIZER,
    'Sólido',
    0.96,
    [
      ['Nitrógeno (N)', 11],
      ['Fósforo (P2O5)', 52],
    ],
  ],
  [
    3,
    'Fosfato diamónico (DAP) 18-46-0',
    '1003',
    null,
    'Mosaic',
    FERTILIZER,
    'Sólido',
    0.98,
    [
      ['Nitrógeno (N)', 18],
      ['Fósforo (P2O5)', 46],
    ],
  ],
  [4, 'UAN 32 (solución nitrogenada)', '1004', 'AR', 'YPF Agro', FERTILIZER, 'Líquido', 1.32, [['Nitrógeno (N)', 32]]],
  [
    5,
    'Nitrato amónico cálcico (NAC 27)',
    '1005',
    'ES',
    'Fertiberia',
    FERTILIZER,
    'Sólido',
    0.98,
    [
      ['Nitrógeno (N)', 27],
      ['Calcio (CaO)', 8],
    ],
  ],
  [
    6,
    'Sulfato de amonio 21-0-0-24S',
    '1006',
    null,
    'Yara',
    FERTILIZER,
    'Sólido',
    1.0,
    [
      ['Nitrógeno (N)', 21],
      ['Azufre (S)', 24],
    ],
  ],
  [7, 'Cloruro de potasio 0-0-60', '1007', 'BR', 'Mosaic', FERTILIZER, 'Sólido', 1.05, [['Potasio (K2O)', 60]]],
  [
    8,
    'Superfosfato triple 0-46-0',
    '1008',
    'UY',
    'Isusa',
    FERTILIZER,
    'Sólido',
    1.1,
    [
      ['Fósforo (P2O5)', 46],
      ['Calcio (CaO)', 13],
    ],
  ],
  [20, 'Glifosato 66,2% sal potásica', '2001', 'AR', 'Bayer', HERBICIDE, 'Líquido', 1.35, [['Glifosato', 66.2, 15.33]]],
  [
    21,
    'Atrazina 90% WG',
    '2002',
    'AR',
    'Syngenta',
    HERBICIDE,
    'Granulado dispersable',
    null,
    [['Atrazina', 90, 22.85]],
  ],
  [22, '2,4-D sal dimetilamina 60%', '2003', 'AR', 'Atanor', HERBICIDE, 'Líquido', 1.2, [['2,4-D', 60, 20.7]]],
  [23, 'S-metolacloro 96% EC', '2004', null, 'Syngenta', HERBICIDE, 'Líquido', 1.12, [['S-metolacloro', 96, 22]]],
  [24, 'Dicamba 57,7% SL', '2005', 'US', 'BASF', HERBICIDE, 'Líquido', 1.15, [['Dicamba', 57.7, 28]]],
  [
    25,
    'Glufosinato de amonio 20% SL',
    '2006',
    'ES',
    'BASF',
    HERBICIDE,
    'Líquido',
    1.08,
    [['Glufosinato de amonio', 20, 20.2]],
  ],
  [
    26,
    'Flumioxazin 48% SC',
    '2007',
    'BR',
    'Sumitomo',
    HERBICIDE,
    'Suspensión concentrada',
    1.18,
    [['Flumioxazin', 48, 13.5]],
  ],
  [
    40,
    'Azoxistrobina 20% + Ciproconazol 8% SC',
    '3001',
    'AR',
    'Syngenta',
    FUNGICIDE,
    'Suspensión concentrada',
    1.08,
    [
      ['Azoxistrobina', 20, 26.4],
      ['Ciproconazol', 8, 34],
    ],
  ],
  [41, 'Tebuconazol 25% EW', '3002', 'ES', 'Bayer', FUNGICIDE, 'Líquido', 0.98, [['Tebuconazol', 25, 40.3]]],
  [42, 'Mancozeb 80% WP', '3003', null, 'UPL', FUNGICIDE, 'Polvo mojable', null, [['Mancozeb', 80, 25.72]]],
  [
    60,
    'Clorantraniliprol 20% SC',
    '4001',
    'AR',
    'FMC',
    INSECTICIDE,
    'Suspensión concentrada',
    1.15,
    [['Clorantraniliprol', 20, 17.1]],
  ],
  [
    61,
    'Lambda-cialotrina 5% EC',
    '4002',
    'ES',
    'Syngenta',
    INSECTICIDE,
    'Líquido',
    0.93,
    [['Lambda-cialotrina', 5, 43.5]],
  ],
  [
    62,
    'Imidacloprid 35% SC',
    '4003',
    'BR',
    'Bayer',
    INSECTICIDE,
    'Suspensión concentrada',
    1.2,
    [['Imidacloprid', 35, 36.71]],
  ],
  [
    63,
    'Cipermetrina 25% EC',
    '4004',
    null,
    'Chemotecnica',
    INSECTICIDE,
    'Líquido',
    0.95,
    [['Cipermetrina', 25, 36.35]],
  ],
  [80, 'Semilla de soja DM 46i20', '5001', 'AR', 'Don Mario', SEED, 'Sólido', null, []],
  [81, 'Semilla de maíz DK 72-10', '5002', 'AR', 'Dekalb', SEED, 'Sólido', null, []],
  [82, 'Semilla de trigo Baguette 620', '5003', 'AR', 'Nidera', SEED, 'Sólido', null, []],
  [83, 'Semilla de girasol Paraíso 1800', '5004', 'AR', 'Nidera', SEED, 'Sólido', null, []],
  [84, 'Semilla de cebada Planet', '5005', 'ES', 'Secobra', SEED, 'Sólido', null, []],
  [85, 'Semilla de maíz P1815', '5006', 'BR', 'Pioneer', SEED, 'Sólido', null, []],
  [
    100,
    'Estiércol bovino compostado',
    '6001',
    null,
    'Elaboración propia',
    ORGANIC,
    'Sólido',
    0.6,
    [
      ['Nitrógeno (N)', 1.5],
      ['Fósforo (P2O5)', 1.2],
      ['Potasio (K2O)', 1.8],
    ],
  ],
  [
    101,
    'Gallinaza compostada',
    '6002',
    'ES',
    'Ecoabonos',
    ORGANIC,
    'Sólido',
    0.55,
    [
      ['Nitrógeno (N)', 3.2],
      ['Fósforo (P2O5)', 2.8],
      ['Potasio (K2O)', 2.1],
    ],
  ],
  [
    102,
    'Vinaza de caña concentrada',
    '6003',
    'BR',
    'Raízen',
    ORGANIC,
    'Líquido',
    1.25,
    [
      ['Potasio (K2O)', 6.5],
      ['Materia orgánica', 35],
    ],
  ],
  [
    120,
    'Aceite metilado de soja',
    '7001',
    'AR',
    'Rizobacter',
    ADJUVANT,
    'Líquido',
    0.89,
    [['Ésteres metílicos de ácidos grasos', 85, null, false]],
  ],
];

let componentId = 0;
export const MASTER_INPUTS: readonly InputRecord[] = ENTRIES.map(
  ([id, name, code, country, company, type, state, density, parts]) => ({
    id,
    uuid: stableUuid(`input:${id}`),
    name,
    ownerId: null,
    code,
    country,
    company,
    type,
    state,
    density,
    composition: null,
    components: parts.map(([partName, concentration, eiq, activePrinciple]) => ({
      id: ++componentId,
      uuid: stableUuid(`input:${id}:${partName}`),
      name: partName,
      activePrinciple: activePrinciple ?? true,
      eiq: eiq ?? null,
      concentration,
    })),
  }),
);

const byId = new Map(MASTER_INPUTS.map((input) => [input.id, input]));
const byUuid = new Map(MASTER_INPUTS.map((input) => [input.uuid, input]));
export const masterInputById = (id: number): InputRecord | undefined => byId.get(id);
export const masterInputByUuid = (uuid: string): InputRecord | undefined => byUuid.get(uuid.toLowerCase());
