// Spec 2, Season shapes and Imagery layers, against the local stack (docs/imagery.md, "Season
// shapes"): a new shape for a campaign re-cuts every stored date of that campaign with the new
// polygon (read back from the GeoTIFF by GDAL) and recomputes its statistics, holding the lock
// meanwhile; the dates of another campaign keep their own polygon.
import { randomUUID } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import proj4 from 'proj4';
import { expect, it } from 'vitest';
import { acquisitionIndex, acquisitions, skyOf } from '../scripts/local/scenes';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import {
  call,
  createField,
  download,
  eventually,
  IMAGERY_AREA,
  newUser,
  square,
  stack,
  type TestUser,
} from './helpers/api';
import { gdalTranslate } from './helpers/gdal';

const UTM20S = '+proj=utm +zone=20 +south +datum=WGS84 +units=m +no_defs';
const LON = IMAGERY_AREA[0] + 0.15;
const LAT = IMAGERY_AREA[1] + 0.7;
const OLD = square(LON, LAT, 0.006);
// inside the old polygon
const NEW = { lon: LON + 0.001, lat: LAT + 0.0015, size: 0.003 };
const SHRUNK = square(NEW.lon, NEW.lat, NEW.size);

interface DateEntry {
  date: string;
  min: number;
  max: number;
  cloudy: boolean;
}

const datesOf = async (user: TestUser, fieldId: number) =>
  (await call('GET', '/api/layers/dates/v3', { token: user.token, query: { field_id: fieldId } })).body.layers.sentinel2
    .dates as DateEntry[];

async function tiff(user: TestUser, fieldId: number, date: string): Promise<Buffer> {
  const query = { field_id: fieldId, layer_name: 'sentinel2', operation: 'ndvi1', date, format: 'image/tiff' };
  const response = await download('GET', '/api/geoserver/v2', {
    token: user.token,
    query: { ...query, transparent: true },
  });
  expect(response.status).toBe(200);
  return response.bytes;
}

/** The pixels with data of a GeoTIFF, by GDAL: their centres (lon, lat) and values. */
async function dataPixels(bytes: Buffer): Promise<Array<{ lon: number; lat: number; value: number }>> {
  const xyz = (await gdalTranslate(bytes, 'tif', ['-q', '-of', 'XYZ'])).toString();
  return xyz
    .trim()
    .split('\n')
    .map((line) => line.split(' ').map(Number))
    .filter(([, , value]) => Number.isFinite(value))
    .map(([x, y, value]) => {
      const [lon, lat] = proj4(UTM20S, 'EPSG:4326', [x!, y!]);
      return { lon: lon!, lat: lat!, value: value! };
    });
}

const insideNew = ({ lon, lat }: { lon: number; lat: number }) =>
  lon > NEW.lon && lon < NEW.lon + NEW.size && lat > NEW.lat && lat < NEW.lat + NEW.size;

const ndviSeries = async (user: TestUser, fieldId: number) =>
  new Map(
    (
      (await call('GET', '/api/fields/ndvi', { token: user.token, query: { field_id: fieldId } })).body.ndvi as Array<{
        date: string;
        ndvi_mean: number;
      }>
    ).map((p) => [p.date, p.ndvi_mean]),
  );

it("a shape change for a campaign re-cuts every stored date of that campaign and recomputes its figures; another campaign's dates keep their polygon", async () => {
  const owner = await newUser({ claims: ['*'] });
  const { fieldId } = await createField(owner, { shape: OLD });
  const now = new Date();
  const year = now.getUTCFullYear();
  // dates of two campaigns: a backfill job back to 20 December of last year (an operator's deeper
  // backfill, on the backfill lane)
  const periodDays = Math.ceil((now.getTime() - Date.UTC(year - 1, 11, 20)) / 86_400_000);
  const expected = acquisitions(now.getTime() - periodDays * 86_400_000, now.getTime()).length;
  const sqs = new SQSClient({
    region: stack().region,
    endpoint: stack().endpoints.sqs,
    credentials: LOCAL_CREDENTIALS,
  });
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: stack().queues.ImageryQueue!,
      MessageBody: JSON.stringify({
        id: randomUUID(),
        event_name: 'IMAGERY_FIELD.V1',
        data: { field_id: fieldId, period_days: periodDays },
        created_at: new Date().toISOString(),
      }),
    }),
  );
  sqs.destroy();
  const before = await eventually(
    async () => {
      const list = await datesOf(owner, fieldId);
      return list.length >= expected ? list : undefined;
    },
    180_000,
    500,
  );
  const thisYear = before.filter((d) => d.date.startsWith(String(year)));
  const lastYear = before.filter((d) => d.date.startsWith(String(year - 1)));
  expect(lastYear.length).toBeGreaterThanOrEqual(1);
  expect(thisYear.length).toBeGreaterThanOrEqual(3);
  const seriesBefore = await ndviSeries(owner, fieldId);
  // the old cut holds data pixels outside the new polygon
  const newest = thisYear[0]!;
  expect(
    (await dataPixels(await tiff(owner, fieldId, newest.date))).filter((p) => !insideNew(p)).length,
  ).toBeGreaterThan(100);

  const posted = await call('POST', '/api/fields/v2/shapes', {
    token: owner.token,
    json: { field_id: fieldId, campaign: year, shape: SHRUNK },
  });
  expect(posted.body).toEqual({ info: 'shape was created', data: { images_reprocessing: true } });
  // locked while the campaign's dates are cut again; released at the end
  expect(
    (await call('GET', '/api/fields/v2/shape/lock', { token: owner.token, query: { field_id: fieldId } })).status,
  ).toBe(409);
  await eventually(
    async () =>
      (await call('GET', '/api/fields/v2/shape/lock', { token: owner.token, query: { field_id: fieldId } })).status ===
      200
        ? true
        : undefined,
    180_000,
    250,
  );

  const after = await datesOf(owner, fieldId);
  expect(after.map((d) => d.date)).toEqual(before.map((d) => d.date));
  const seriesAfter = await ndviSeries(owner, fieldId);
  let changed = 0;
  for (const entry of after.filter((d) => d.date.startsWith(String(year)))) {
    const pixels = await dataPixels(await tiff(owner, fieldId, entry.date));
    expect(pixels.length, entry.date).toBeGreaterThan(0);
    // no data pixel outside the new polygon
    expect(
      pixels.filter((p) => !insideNew(p)),
      entry.date,
    ).toEqual([]);
    if (skyOf(acquisitionIndex(Date.parse(entry.date))) === 'clear') {
      // the date's figures are those of its new cut: the extremes of the masked GeoTIFF (no cloudy pixel)
      const values = pixels.map((p) => p.value);
      expect(entry.min).toBeCloseTo(Math.min(...values), 4);
      expect(entry.max).toBeCloseTo(Math.max(...values), 4);
    }
    const old = before.find((d) => d.date === entry.date)!;
    const day = entry.date.slice(0, 10);
    if (old.min !== entry.min || old.max !== entry.max || seriesBefore.get(day) !== seriesAfter.get(day)) changed++;
  }
  // bare soil (March to October in the local scenes) is uniform: the dates with a crop change
  const varying = thisYear.filter((d) => d.min !== d.max).length;
  expect(varying).toBeGreaterThanOrEqual(3);
  expect(changed).toBeGreaterThanOrEqual(Math.ceil(varying / 2));
  // last year's dates keep their campaign's polygon, figures and NDVI
  for (const entry of after.filter((d) => d.date.startsWith(String(year - 1)))) {
    expect(entry).toEqual(lastYear.find((d) => d.date === entry.date));
    const day = entry.date.slice(0, 10);
    expect(seriesAfter.get(day)).toBe(seriesBefore.get(day));
    expect(
      (await dataPixels(await tiff(owner, fieldId, entry.date))).filter((p) => !insideNew(p)).length,
    ).toBeGreaterThan(100);
  }
}, 420_000);
