// The legend of a layer drawn on the map, from the scale its PNG is coloured with (docs/imagery.md,
// Rendering): an index over its fixed range (COLOUR_SCALES), a layer from a file over its date's
// min..max, both through the same red-to-green stops; a scale template's classes; true colour none.
// Plain data (tests/unit/console.test.ts); legend-view.ts draws it.
import { COLOUR_SCALES, COLOUR_STOPS } from '../lib/imagery/colours';
import { type IndexOperation, isIndexOperation } from '../lib/imagery/layers';

/** A scale template as GET /api/layers/scale_template lists it (the fields the legend reads). */
export interface ScaleTemplate {
  scale_template_id: number;
  template_name: string;
  layer_name: string;
  operation: string;
  type_distribution: string;
  range_min: number;
  range_max: number;
  colors_scale: { colors: number[][]; scale: number[] };
}

export type Legend =
  | { kind: 'ramp'; colours: string[]; min: number; max: number }
  | { kind: 'classes'; classes: Array<{ colour: string; label: string }>; note?: string }
  | { kind: 'text'; text: string };

const css = (rgb: readonly number[]) => `rgb(${rgb[0]}, ${rgb[1]}, ${rgb[2]})`;
export const number = (value: number) =>
  Number.isInteger(value) ? String(value) : value.toPrecision(3).replace(/\.?0+$/, '');

/** The legend of `operation` on a date (its min and max), coloured by `template` when one is chosen. */
export function legendOf(operation: string, date: { min: number; max: number }, template?: ScaleTemplate): Legend {
  if (operation === 'rgb1') return { kind: 'text', text: 'True colour (red, green, blue bands)' };
  if (template) {
    const { colors, scale } = template.colors_scale;
    const quantiles = template.type_distribution === 'quantiles';
    return {
      kind: 'classes',
      classes: colors.map((colour, i) => ({
        colour: css(colour),
        label: quantiles ? `class ${i + 1}` : `${number(scale[i]!)} – ${number(scale[i + 1]!)}`,
      })),
      ...(quantiles
        ? { note: `quantiles of the image, within ${number(template.range_min)} – ${number(template.range_max)}` }
        : {}),
    };
  }
  const range = isIndexOperation(operation) ? COLOUR_SCALES[operation as IndexOperation] : date;
  return { kind: 'ramp', colours: COLOUR_STOPS.map(css), min: range.min, max: range.max };
}
