// POST /api/sampling/<sampling_uuid>/rasterize (spec 3, Samplings; docs/imagery.md "Layers from
// samplings"): one layer per item from the values the sampling's samples hold for an analysis'
// variable. interpolation_polygon false: the sample points kriged onto the field's grid;
// true: each polygon of the map the sampling references (zoning.info.map_id), or the field itself,
// takes the mean of the samples inside it. The layers are made by the imagery worker, like those of
// files. Rules only: the repositories, gate and layer queue are parameters.
import type { Principal } from '../auth/principal';
import type { FieldGate } from '../authz/gate';
import { Forbidden, Invalid, NotFound } from '../errors';
import { type GeometryKit, geometryKit } from '../geo/geometry';
import { ringsOfWkt } from '../imagery/field-grid';
import { containsPoint, type Rings } from '../imagery/grid';
import { type LayerFeature, type LayerTable, placeOf } from '../imagery/layer-table';
import { layerTypes } from '../imagery/types';
import { checkLayerName, type LayerSpec, type UserLayers } from '../imagery/user-layers';
import type { Spot } from '../spots/model';
import { SAMPLING_CODES } from './codes';
import type { SamplingRepository } from './service';

type Position = [number, number];

export interface RasterizeItem {
  analysis: string;
  variable_name: string;
  /** YYYY-MM-DDT00:00:00Z */
  layer_date: string;
  layer_name: string;
}

export interface RasterizeDeps {
  repository: Pick<SamplingRepository, 'fieldOf' | 'sampling'>;
  fields: FieldGate;
  samplesOf: (principal: Principal, fieldId: number, sampleSetUuid: string) => Promise<Spot[]>;
  /** The polygons of a map of the field (MultiPolygon coordinates each), or undefined when it has no such map. */
  mapPolygons: (fieldId: number, mapId: number) => Promise<Position[][][][] | undefined>;
  layers: Pick<UserLayers, 'fromTable'>;
}

const insufficient = () => new Forbidden('insufficient permissions', { code: SAMPLING_CODES.INSUFFICIENT_PERMISSIONS });

/** Where a sample is: its point, or the middle of its polygon. */
function placeOfSpot({ readWkt, toGeoJson }: GeometryKit, spot: Spot): Position | undefined {
  try {
    const geometry = toGeoJson(readWkt(spot.shape));
    if (geometry.type === 'Point') return [geometry.coordinates[0]!, geometry.coordinates[1]!];
    const polygon = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Position[][][];
    return placeOf({ polygon, values: [] });
  } catch {
    return undefined;
  }
}

/** The analysis a sample is for: the one its spot is named after, else the sampling's first (as GET /api/sampling answers). */
const analysisOf = (spot: Spot, names: string[]) => (spot.name && names.includes(spot.name) ? spot.name : names[0]);

export function samplingRasterizer({ repository, fields, samplesOf, mapPolygons, layers }: RasterizeDeps) {
  async function rasterize(
    principal: Principal,
    uuid: string,
    request: { layers: RasterizeItem[]; interpolation_polygon: boolean },
  ) {
    const id = uuid.toLowerCase();
    const fieldId = await repository.fieldOf(id);
    const sampling = fieldId === undefined ? undefined : await repository.sampling(fieldId, id);
    const unknown = () => new NotFound(`sampling ${uuid} not found`);
    if (!sampling) throw unknown();
    // a sampling of a field the caller cannot read is one nobody made (404); one it reads but cannot add data to, -11
    const { field } = await fields.field(principal, sampling.fieldId, 'write', {
      notFound: unknown,
      forbidden: insufficient,
    });
    const names = Object.keys(sampling.analysis);
    for (const item of request.layers) {
      if (!names.includes(item.analysis))
        throw new Invalid(`the sampling has no analysis ${item.analysis} (${names.join(', ')})`, {
          code: SAMPLING_CODES.WRONG_FORMAT,
        });
      checkLayerName(item.layer_name);
    }
    // the samples: place and analysis of each spot of the sample set
    const geometry = await geometryKit();
    const samples = (await samplesOf(principal, field.id, sampling.sampleSetUuid)).flatMap((spot) => {
      const place = placeOfSpot(geometry, spot);
      return place ? [{ spot, place, analysis: analysisOf(spot, names) }] : [];
    });
    const columns = request.layers.map((item) => `${item.analysis}/${item.variable_name}`);
    const sampleValue = (sample: (typeof samples)[number], item: RasterizeItem): number | null => {
      if (sample.analysis !== item.analysis) return null;
      const value = sample.spot.variables?.find((v) => v.name === item.variable_name)?.value;
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    };
    let features: LayerFeature[];
    if (request.interpolation_polygon) {
      const mapId = Number(sampling.zoning.info.map_id);
      const mapped = Number.isInteger(mapId) && mapId > 0 ? await mapPolygons(field.id, mapId) : undefined;
      const polygons: Position[][][][] = mapped ?? [
        [ringsOfWkt(geometry, (await fields.shape(field)).polygon) as Position[][]],
      ];
      features = polygons.map((polygon) => {
        const rings: Rings = polygon.flat();
        const inside = samples.filter((sample) => containsPoint(rings, sample.place));
        return {
          polygon,
          values: request.layers.map((item) => {
            const values = inside.map((sample) => sampleValue(sample, item)).filter((v): v is number => v !== null);
            return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
          }),
        };
      });
    } else {
      features = samples.map((sample) => ({
        point: sample.place,
        values: request.layers.map((item) => sampleValue(sample, item)),
      }));
    }
    const table: LayerTable = { columns, features };
    columns.forEach((column, i) => {
      if (!features.some((f) => f.values[i] !== null))
        throw new Invalid(`no sample holds a number for ${column}`, { code: SAMPLING_CODES.WRONG_FORMAT });
    });
    // one job per date
    const byDate = new Map<string, LayerSpec[]>();
    request.layers.forEach((item, i) => {
      const spec: LayerSpec = {
        column: columns[i]!,
        id_layer: layerTypes().find((type) => type.nombre === item.layer_name)!.id,
        layer_name: item.layer_name,
        mean: null,
        min: null,
        max: null,
        meta: {},
        interpolation: request.interpolation_polygon ? 'polygons' : 'kriging',
      };
      byDate.set(item.layer_date, [...(byDate.get(item.layer_date) ?? []), spec]);
    });
    const queued = [];
    for (const [date, specs] of byDate)
      queued.push(await layers.fromTable(field.id, sampling.uuid, table, date, specs));
    return { job_ids: queued.map((q) => q.job_id), field_id: field.id, layers: queued.flatMap((q) => q.layers) };
  }
  return { rasterize };
}
