// Scale templates (spec 2, Imagery layers: "Scale template"): a user's own colour scales for a
// layer's operation, and how one colours an image. Classes: `cant_intervals` intervals, one colour
// each; `equidistant` uses the template's boundaries (`scale`, ascending, cant_intervals + 1 of
// them); `quantiles` puts the same number of the image's pixels in each class (boundaries from the
// image's own values, clamped to range_min..range_max). docs/imagery.md, "Scale templates".
import { as, type EntityOf, entity, num, str, strOr } from '../db/entity';
import { Invalid } from '../errors';

export type Rgb = [number, number, number];
export const DISTRIBUTIONS = ['quantiles', 'equidistant'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

/** A scale template, defined once: its properties and the item attributes that hold them. */
export const ScaleTemplate = entity('scale_template', {
  id: num('scale_template_id'),
  ownerId: num('owner_id'),
  name: str('template_name'),
  layerName: str('layer_name'),
  operation: str('operation'),
  palette: strOr('palette', ''),
  distribution: as<Distribution>('type_distribution'),
  intervals: num('cant_intervals'),
  rangeMin: num('range_min'),
  rangeMax: num('range_max'),
  hierarchy: as<string[]>('hierarchy', []),
  colors: as<Rgb[]>('colors'),
  scale: as<number[]>('scale'),
});
export type ScaleTemplate = EntityOf<typeof ScaleTemplate>;

export const SCALE_LIMITS = { NAME: 100, INTERVALS: 32, HIERARCHY: 32, TEXT: 100, PER_USER: 200 } as const;

/** The rules a template must keep (create, and the result of a change). */
export function checkTemplate(t: Omit<ScaleTemplate, 'id' | 'ownerId'>): void {
  if (!(t.rangeMin < t.rangeMax)) throw new Invalid('range_min must be less than range_max');
  if (t.colors.length !== t.intervals)
    throw new Invalid(`colors_scale.colors must hold one colour per interval (${t.intervals})`);
  if (t.scale.length !== t.intervals + 1)
    throw new Invalid(`colors_scale.scale must hold the ${t.intervals + 1} boundaries of ${t.intervals} intervals`);
  for (let i = 1; i < t.scale.length; i++) {
    if (!(t.scale[i]! > t.scale[i - 1]!)) throw new Invalid('colors_scale.scale must be strictly ascending');
  }
  if (t.scale[0]! < t.rangeMin || t.scale[t.scale.length - 1]! > t.rangeMax)
    throw new Invalid('colors_scale.scale must lie within range_min and range_max');
}

/** The class boundaries for an image: the template's, or the image's quantiles. */
export function classBoundaries(template: ScaleTemplate, values: ArrayLike<number>): number[] {
  if (template.distribution === 'equidistant') return template.scale;
  const sorted: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isNaN(v)) sorted.push(Math.max(template.rangeMin, Math.min(template.rangeMax, v)));
  }
  if (!sorted.length) return template.scale;
  sorted.sort((a, b) => a - b);
  const n = template.intervals;
  return Array.from({ length: n + 1 }, (_, k) =>
    k === 0 ? sorted[0]! : k === n ? sorted[sorted.length - 1]! : sorted[Math.floor((k * sorted.length) / n)]!,
  );
}

/** The class of a value: the last boundary at or below it (values outside go to the end classes). */
export function classOf(boundaries: number[], value: number): number {
  let lo = 0;
  let hi = boundaries.length - 2;
  if (value < boundaries[1]!) return 0;
  if (value >= boundaries[hi]!) return hi;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (boundaries[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
