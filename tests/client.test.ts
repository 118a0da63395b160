// The typed client (clients/typescript) against the local stack, as an extension uses it: a token
// minted through the internal API, form, JSON and multipart bodies, typed answers and typed error
// bodies, binary answers as bytes.
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { createSurcoClient, form, multipart } from '../clients/typescript/index';
import { runExample } from '../examples/extension/extension';
import { eventually, IMAGERY_AREA, imagerySquare, square, stack, unique } from './helpers/api';

const platform = () => createSurcoClient({ baseUrl: stack().baseUrl, internalKey: stack().internalKey });

async function extension() {
  const user = await platform().POST('/internal/users', { body: { user_name: unique('client') } });
  expect(user.error).toBeUndefined();
  const userId = user.data!.data.id;
  const token = await platform().POST('/internal/tokens', {
    body: { user_id: userId, extension_id: 'client-test', claims: ['*'] },
  });
  return { userId, surco: createSurcoClient({ baseUrl: stack().baseUrl, token: token.data!.data.access_token }) };
}

describe('typed client', () => {
  it('creates a field with a form body, lists it, records a spot with JSON, and reads typed errors', async () => {
    const { surco } = await extension();
    const created = await surco.POST(
      '/api/agregarlote',
      form({ nombre: 'Lote cliente', nombrecampo: unique('Campo').slice(0, 40), shape: square(-60.7, -33.7) }),
    );
    expect(created.response.status).toBe(200);
    const fieldId = Number(created.data!.id_lote);
    const listed = await surco.GET('/api/getfields');
    const farms = Object.values(listed.data!.user.farms);
    expect(farms.flatMap((farm) => Object.keys(farm.fields).map(Number))).toContain(fieldId);

    const spot = await surco.POST('/spots/spot', {
      body: { field_id: fieldId, shape: 'POINT(-60.695 -33.695)', name: 'Mancha de sorgo de Alepo' },
    });
    expect(spot.response.status).toBe(200);
    expect(spot.data!.spot_uuid).toMatch(/^[0-9a-f-]{36}$/);

    const missing = await surco.GET('/api/layers/dates/v3', { params: { query: { field_id: 999_999_999 } } });
    expect(missing.response.status).toBe(404);
    // the error is the area's dialect, or the general one of API Gateway's own 429: a client tells them apart
    expect(missing.error && 'error_code' in missing.error && missing.error.error_code).toBe('NOT_FOUND');
    const anonymous = await createSurcoClient({ baseUrl: stack().baseUrl }).GET('/api/getfields');
    expect(anonymous.response.status).toBe(401);
  });

  it('reads an image as bytes and sends a multipart zip', async () => {
    const { surco } = await extension();
    const created = await surco.POST(
      '/api/agregarlote',
      form({ nombre: 'Lote imagen', nombrecampo: unique('Campo').slice(0, 40), shape: imagerySquare(0.6, 0.6) }),
    );
    const fieldId = Number(created.data!.id_lote);
    const date = await eventually(
      async () => {
        const dates = await surco.GET('/api/layers/dates/v3', { params: { query: { field_id: fieldId } } });
        return dates.data?.layers.sentinel2?.dates[0]?.date;
      },
      90_000,
      500,
    );
    const png = await surco.GET('/api/geoserver/v2', {
      params: { query: { field_id: fieldId, layer_name: 'sentinel2', operation: 'ndvi1', date, transparent: true } },
      parseAs: 'arrayBuffer',
    });
    expect(png.response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(png.data!).subarray(1, 4).toString()).toBe('PNG');

    const zip = new JSZip();
    // two yield points inside the image's field (imagerySquare(0.6, 0.6))
    const [lon, lat] = [IMAGERY_AREA[0] + 0.605, IMAGERY_AREA[1] + 0.605];
    zip.file('rinde.csv', `lat,lon,rinde\n${lat},${lon},9000\n${lat + 0.003},${lon + 0.003},9500\n`);
    const uploaded = await surco.POST(
      '/files',
      multipart({ file: { bytes: await zip.generateAsync({ type: 'uint8array' }), filename: 'rinde.zip' } }),
    );
    expect(uploaded.response.status).toBe(200);
    const data = uploaded.data!.data;
    expect('lote_id' in data && data.lote_id).toBe(fieldId);
    const refused = await surco.POST(
      '/files',
      multipart({ file: { bytes: new TextEncoder().encode('not a zip'), filename: 'x.zip' } }),
    );
    expect(refused.response.status).toBe(400);
    expect(refused.error && 'error_code' in refused.error && refused.error.error_code).toBe('ERROR_ARCHIVO');
  });

  it('runs the example extension (examples/extension) to the end', async () => {
    const lines: string[] = [];
    const result = await runExample({
      baseUrl: stack().baseUrl,
      internalKey: stack().internalKey,
      log: (line) => lines.push(line),
      // where the test stack has satellite scenes (tests/helpers/shapes.ts)
      fieldAt: [IMAGERY_AREA[0] + 0.7, IMAGERY_AREA[1] + 0.7],
    });
    expect(result.spotUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.labourUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.ndvi.length).toBeGreaterThan(0);
    expect(lines.some((line) => line.startsWith(`spot ${result.spotUuid} with photo`))).toBe(true);
    // the labour changed by another client in between: one 412, then both changes kept
    expect(result.labour).toEqual({ surface: 25, observations: 'viento', conflicts: 1 });
    expect(result.webhookEvents.map((e) => e.name).sort()).toEqual([
      'FIELD_CREATED.V1',
      'LABOUR_CHANGED.V1',
      'LABOUR_CHANGED.V1',
      'LABOUR_CHANGED.V1',
      'SPOT_CREATED.V1',
    ]);
    expect(result.webhookEvents.every((e) => e.verified)).toBe(true);
    // and the change feed caught up with what it did
    const changes = result.changes.map((c) => `${c.kind} ${c.change}`);
    for (const expected of ['field created', 'farm created', 'spot created', 'labour created', 'labour changed'])
      expect(changes, expected).toContain(expected);
    expect(result.changes).toContainEqual({ kind: 'spot', change: 'created', uuid: result.spotUuid });
  }, 120_000);
});
