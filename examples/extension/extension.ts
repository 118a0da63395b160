// An example extension on the typed client (clients/typescript): it mints a token through the
// internal API (as the platform does for an installed extension), lists the user's fields (making
// one if there is none), records a weed patch as a spot with a photo, records a planned herbicide
// application, and reads the field's NDVI series. See README.md here to run it against `npm start`.
import { v1 as uuidV1 } from 'uuid';
import { createSurcoClient, form, multipart } from '../../clients/typescript/index';

export interface ExampleOptions {
  baseUrl: string;
  internalKey: string;
  log?: (line: string) => void;
  /** How long to wait for the field's first satellite dates (a new field's come within a minute locally). */
  imageryWaitMs?: number;
}

/** A 1 x 1 PNG: the photo of the patch. */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const must = <T>(result: { data?: T; error?: unknown; response: Response }, what: string): T => {
  if (result.data === undefined) throw new Error(`${what}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
};

export async function runExample({ baseUrl, internalKey, log = console.log, imageryWaitMs = 90_000 }: ExampleOptions) {
  // 1. The platform installs the extension for a user: a user and a token (every claim)
  const platform = createSurcoClient({ baseUrl, internalKey });
  const user = must(await platform.POST('/internal/users', { body: { user_name: `example-${Date.now()}` } }), 'user').data;
  const token = must(await platform.POST('/internal/tokens', { body: { user_id: user.id, extension_id: 'example-extension', claims: ['*'] } }), 'token').data;
  const surco = createSurcoClient({ baseUrl, token: token.access_token });
  log(`token for user ${user.id}, valid until ${token.expires_at}`);

  // 2. The user's fields (a new user has none: make one)
  const shape = 'POLYGON((-60.62 -33.95,-60.61 -33.95,-60.61 -33.94,-60.62 -33.94,-60.62 -33.95))';
  must(await surco.POST('/api/agregarlote', form({ nombre: 'Lote Norte', nombrecampo: 'La Esperanza', shape })), 'field');
  const farms = Object.values(must(await surco.GET('/api/getfields'), 'fields').user.farms);
  const fields = farms.flatMap((farm) => Object.entries(farm.fields).map(([id, field]) => ({ id: Number(id), name: field.name, farm: farm.name })));
  for (const field of fields) log(`field ${field.id}: ${field.name} (${field.farm})`);
  const fieldId = fields[0]!.id;

  // 3. A weed patch as a spot, with a note and its photo (declared, then uploaded)
  const photo = uuidV1();
  const point = 'POINT(-60.615 -33.945)';
  const spot = must(
    await surco.POST('/spots/spot', {
      body: { field_id: fieldId, shape: point, name: 'Sorgo de Alepo', texts: [{ uuid: uuidV1(), text: 'Manchón en la cabecera', timestamp_usr: new Date().toISOString().slice(0, 19) + 'Z', imgs: [{ coordinate: point, uuid: photo }] }] },
    }),
    'spot',
  );
  const uploaded = await surco.PUT('/api/spots/msgs/imgs', { params: { query: { uuid: photo } }, ...multipart({ img: { bytes: PHOTO, filename: 'mancha.png', type: 'image/png' } }) });
  if (!uploaded.response.ok) throw new Error(`photo: HTTP ${uploaded.response.status}`);
  log(`spot ${spot.spot_uuid} with photo ${photo}`);

  // 4. A planned herbicide application on the field
  const labour = must(
    await surco.POST('/activities/labour', {
      body: { labour_type_id: 1, yeargroup: new Date().getUTCFullYear(), date: new Date().toISOString().slice(0, 10), field_id: fieldId, inputs: [{ name: 'Glifosato', dose: 2, unit: 'L/ha' }] },
    }),
    'labour',
  );
  log(`labour ${labour.data.uuid}`);

  // 5. The field's NDVI: its satellite dates come from the scene source, then the series
  const deadline = Date.now() + imageryWaitMs;
  let ndvi: Array<{ date: string; ndvi_mean: number }> = [];
  while (Date.now() < deadline) {
    ndvi = must(await surco.GET('/api/fields/ndvi', { params: { query: { field_id: fieldId } } }), 'ndvi').ndvi;
    if (ndvi.length) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  log(`NDVI of field ${fieldId}: ${ndvi.map((p) => `${p.date} ${p.ndvi_mean.toFixed(2)}`).join(', ') || 'no clear date yet'}`);
  return { userId: user.id, fieldId, spotUuid: spot.spot_uuid as string, labourUuid: labour.data.uuid as string, ndvi };
}
