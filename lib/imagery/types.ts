// The layer type catalogue (spec 2, "Layer type catalogue"): fixed entries and the depth families,
// whose ids run consecutively by depth except Densidad and Electroconductividad.
import { LANDSAT, SENTINEL2 } from './layers';

export interface LayerType {
  id: number;
  nombre: string;
}

const FIXED: ReadonlyArray<[number, string]> = [
  [1, 'ndvi1'],
  [2, 'ndvip1'],
  [3, 'gndvi1'],
  [4, 'gndvip1'],
  [5, 'rinde'],
  [6, 'rgb1'],
  [7, 'rgbp1'],
  [8, 'altimetria'],
  [9, 'siembra'],
  [10, 'herbicida'],
  [11, 'fungicida'],
  [12, 'insecticida'],
  [13, 'fertilizante'],
  [14, 'enmienda'],
  [15, 'profundidad_suelo'],
  [22, 'margen_bruto'],
  [24, 'ndvi0.8'],
  [25, 'vigor planta'],
  [26, 'tcari/osavi'],
  [27, 'NDRE'],
  [29, 'RGB0.8'],
  [31, SENTINEL2],
  [32, LANDSAT],
  [34, 'aplicación'],
  [35, 'humedad'],
  [39, 'siembra_vel_avance'],
  [40, 'siembra_var'],
  [41, 'siembra_fecha'],
  [42, 'rinde_hum'],
  [43, 'rinde_vel_avance'],
  [44, 'rinde_fecha'],
  [234, 'aplicación_fecha'],
  [235, 'aplicación_hum'],
  [236, 'aplicación_presion'],
  [237, 'aplicación_temp'],
  [238, 'aplicación_vel_avance'],
  [239, 'costo'],
  [240, 'ingreso'],
];

export const DEPTHS = [20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150] as const;

/** Families whose ids run consecutively from the first (depth 20) in depth order. */
const CONSECUTIVE: ReadonlyArray<[string, number]> = [
  ['MO', 45],
  ['N', 59],
  ['P', 73],
  ['K', 87],
  ['S', 101],
  ['PH', 115],
  ['Ca', 129],
  ['Mg', 143],
  ['Na', 157],
  ['Arena', 179],
  ['Arcilla', 193],
  ['Limo', 207],
];
/** The irregular families: one id per depth, in depth order. */
const IRREGULAR: ReadonlyArray<[string, readonly number[]]> = [
  ['Densidad', [17, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233]],
  ['Electroconductividad', [390, 171, 172, 391, 173, 36, 392, 174, 175, 393, 176, 177, 178, 37]],
];

export const DEPTH_FAMILIES: ReadonlyArray<{ family: string; ids: readonly number[] }> = [
  ...CONSECUTIVE.map(([family, first]) => ({ family, ids: DEPTHS.map((_, i) => first + i) })),
  ...IRREGULAR.map(([family, ids]) => ({ family, ids })),
];

let catalogue: readonly LayerType[] | undefined;

/** Every layer type, by id: built at its first use, not when a function loads (rendering never needs it). */
export function layerTypes(): readonly LayerType[] {
  return (catalogue ??= [
    ...FIXED.map(([id, nombre]) => ({ id, nombre })),
    ...DEPTH_FAMILIES.flatMap(({ family, ids }) => ids.map((id, i) => ({ id, nombre: `${family}_${DEPTHS[i]}` }))),
  ].sort((a, b) => a.id - b.id));
}

/** The depth range of a depth (cm): from the depth before it, 0 for the first ('0-20', '20-30', ..., '140-150'). */
export const depthRange = (index: number): string => `${index === 0 ? 0 : DEPTHS[index - 1]}-${DEPTHS[index]}`;

/**
 * GET api/sampling/analysis_variable/layer_type: for each depth range, each analysis family with the
 * layer its samples make (layer_name, its one operation, and the layer type id).
 */
export function analysisLayerTypes(): Record<
  string,
  Record<string, { operation: string; layer_name: string; id_layer: number }>
> {
  return Object.fromEntries(
    DEPTHS.map((depth, i) => [
      depthRange(i),
      Object.fromEntries(
        DEPTH_FAMILIES.map(({ family, ids }) => {
          const name = `${family}_${depth}`;
          return [family, { operation: name, layer_name: name, id_layer: ids[i]! }];
        }),
      ),
    ]),
  );
}
