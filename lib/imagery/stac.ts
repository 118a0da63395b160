// Finding scenes: a STAC API search (Earth Search in production, the local stack's catalogue
// locally; docs/imagery.md), and the choice of one scene per day for a field.
import * as z from 'zod/mini';
import type { Radiometry } from './bands';

export const COLLECTION = 'sentinel-2-l2a';
export const BANDS = ['red', 'green', 'blue', 'nir', 'rededge1', 'scl'] as const;
export type BandName = (typeof BANDS)[number];

const RasterBand = z.looseObject({ scale: z.optional(z.number()), offset: z.optional(z.number()) });
const Asset = z.looseObject({ href: z.string().check(z.url()), 'raster:bands': z.optional(z.array(RasterBand)) });
const Item = z.looseObject({
  id: z.string().check(z.minLength(1)),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  properties: z.looseObject({
    datetime: z.string(),
    'proj:epsg': z.optional(z.number().check(z.int())),
    'proj:code': z.optional(z.string()),
    'eo:cloud_cover': z.optional(z.number()),
    'earthsearch:boa_offset_applied': z.optional(z.boolean()),
  }),
  assets: z.looseObject(Object.fromEntries(BANDS.map((band) => [band, Asset])) as Record<BandName, typeof Asset>),
});
const Link = z.looseObject({
  rel: z.string(),
  href: z.string(),
  method: z.optional(z.string()),
  body: z.optional(z.record(z.string(), z.unknown())),
});
const SearchPage = z.looseObject({ features: z.array(z.unknown()), links: z.optional(z.array(Link)) });

/** What ingestion needs of a STAC item (it travels in the scene job). */
export interface Scene {
  id: string;
  /** YYYY-MM-DDTHH:mm:ssZ */
  datetime: string;
  /** YYYY-MM-DD (UTC) */
  day: string;
  epsg: number;
  bbox: [number, number, number, number];
  cloudCover?: number;
  hrefs: Record<BandName, string>;
  radiometry: Radiometry;
}

/** Reflectance = DN x 0.0001; from processing baseline 04.00 a -0.1 offset, applied only when the item says it was not. */
export function radiometryOf(item: z.infer<typeof Item>): Radiometry {
  const band = item.assets.red['raster:bands']?.[0];
  const scale = band?.scale ?? 0.0001;
  const offset = item.properties['earthsearch:boa_offset_applied'] === true ? 0 : (band?.offset ?? 0);
  return { scale, offset };
}

export function sceneOf(raw: unknown): Scene | undefined {
  const parsed = Item.safeParse(raw);
  if (!parsed.success) return undefined;
  const item = parsed.data;
  const epsg = item.properties['proj:epsg'] ?? Number(item.properties['proj:code']?.replace(/^EPSG:/, ''));
  const time = new Date(item.properties.datetime);
  if (!Number.isInteger(epsg) || Number.isNaN(time.getTime())) return undefined;
  const datetime = `${time.toISOString().slice(0, 19)}Z`;
  return {
    id: item.id,
    datetime,
    day: datetime.slice(0, 10),
    epsg,
    bbox: item.bbox,
    ...(item.properties['eo:cloud_cover'] !== undefined ? { cloudCover: item.properties['eo:cloud_cover'] } : {}),
    hrefs: Object.fromEntries(BANDS.map((band) => [band, item.assets[band].href])) as Record<BandName, string>,
    radiometry: radiometryOf(item),
  };
}

export interface SearchRequest {
  stacUrl: string;
  /** The field's bounds in EPSG 4326. */
  bounds: [number, number, number, number];
  from: Date;
  to: Date;
  fetchFn?: typeof fetch;
}

const MAX_PAGES = 20;

/** Every item of the collection over the bounds between the two instants (following `next` links). */
export async function searchScenes({ stacUrl, bounds, from, to, fetchFn = fetch }: SearchRequest): Promise<Scene[]> {
  let url = `${stacUrl.replace(/\/$/, '')}/search`;
  let body: Record<string, unknown> | undefined = {
    collections: [COLLECTION],
    bbox: bounds,
    datetime: `${from.toISOString()}/${to.toISOString()}`,
    limit: 100,
  };
  const scenes: Scene[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await fetchFn(url, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', accept: 'application/geo+json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    if (!response.ok) throw new Error(`STAC search answered ${response.status}`);
    const result = SearchPage.parse(await response.json());
    for (const feature of result.features) {
      const scene = sceneOf(feature);
      if (scene) scenes.push(scene);
    }
    const next = result.links?.find((link) => link.rel === 'next');
    if (!next) break;
    url = next.href;
    body = next.method === 'POST' ? { ...body, ...next.body } : undefined;
  }
  return scenes;
}

const covers = (outer: [number, number, number, number], inner: [number, number, number, number]): boolean =>
  outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/**
 * One scene per day: among the items whose footprint covers the whole field, those of the field's
 * own UTM zone first, then the least cloudy, then the first id. Days no single item covers are left
 * out (docs/imagery.md: Sentinel-2 tiles overlap by about 10 km, so only fields astride that
 * overlap's edge miss a day).
 */
export function chooseScenes(
  scenes: Scene[],
  fieldBounds: [number, number, number, number],
  fieldEpsg: number,
): Scene[] {
  const byDay = new Map<string, Scene>();
  const rank = (scene: Scene): [number, number, string] => [
    scene.epsg === fieldEpsg ? 0 : 1,
    scene.cloudCover ?? 100,
    scene.id,
  ];
  for (const scene of scenes) {
    if (!covers(scene.bbox, fieldBounds)) continue;
    const current = byDay.get(scene.day);
    if (!current) {
      byDay.set(scene.day, scene);
      continue;
    }
    const [a, b] = [rank(scene), rank(current)];
    if (a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))) byDay.set(scene.day, scene);
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? 1 : -1));
}
