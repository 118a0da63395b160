// The cross-tenant matrix (docs/security.md). One owner (tenant A) holds a record of every kind;
// three others try every operation of docs/openapi.json that addresses a record, aimed at A's:
//   B  another user in another workspace (with every claim and the same extension id as A),
//   R  a user with a read-only share of A's farm (may read what the share shows, never write),
//   E  A's own user through a second extension (sees A's user records, never another
//      extension's sensors or storage).
// Each attempt must be refused or answer nothing of A's (no 5xx; a 2xx body never holds A's
// secret marker), and A's data read back afterwards must equal the snapshot taken before.
// The operations come from the OpenAPI document: an operation with an id or uuid in its path,
// query or body that has no probe here fails the run, so a new endpoint is covered the day it lands.
// Existence is answered as absence: for every attempt of B that names A's records, the same attempt
// with ids that exist nowhere (A's world as a ghost: the same ids, changed) must be answered the
// same, status and body, modulo the ids themselves and request ids (docs/security.md).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { v1 as uuidV1 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createField,
  eventually,
  internal,
  newUser,
  square,
  stack,
  type TestUser,
  tokenFor,
  unique,
} from './helpers/api';

// --- the OpenAPI document --------------------------------------------------------------------

interface OpenApiOperation {
  operationId: string;
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header' }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
}
interface Operation {
  id: string;
  /** The operation's probe name: the operationId without the alias suffix (getSpots2 -> getSpots). */
  probe: string;
  method: string;
  path: string;
  idNames: string[];
}

const document = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
};

/** Member names of a request schema: object properties, array items, unions, references. */
function memberNames(schema: unknown, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return memberNames(document.components?.schemas?.[s.$ref.split('/').pop()!], seen);
  const names = Object.keys((s.properties as object) ?? {});
  for (const key of ['items', 'additionalProperties']) names.push(...memberNames(s[key], seen));
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const member of (s[key] as unknown[]) ?? []) names.push(...memberNames(member, seen));
  return names;
}

const ID_NAME = /(^|_)(id|ids|uuid|uuids)($|_)|^lote$|^idcampo$/i;

const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op && typeof op === 'object' && 'operationId' in op)
    .map(([method, op]) => {
      const parameters = (op.parameters ?? []).filter((p) => p.in !== 'header').map((p) => p.name);
      const body = Object.values(op.requestBody?.content ?? {}).flatMap((content) => memberNames(content.schema));
      const pathIds = (op.parameters ?? []).filter((p) => p.in === 'path' && p.name !== 'scope').map((p) => p.name);
      return {
        id: op.operationId,
        probe: op.operationId.replace(/2$/, ''),
        method: method.toUpperCase(),
        path,
        idNames: [...new Set([...pathIds, ...[...parameters, ...body].filter((name) => ID_NAME.test(name))])],
      };
    }),
);

// --- A's world -------------------------------------------------------------------------------

/** In every name and text A stores: a 2xx answer to anyone else must never hold it. */
const SECRET = `zq${randomBytes(6).toString('hex')}`;
/** In A's storage of its own extension only: A's user through another extension (E) never sees it. */
const EXTENSION_SECRET = `xe${randomBytes(6).toString('hex')}`;
/** In A's notifications (apart from SECRET: R legitimately receives notices that name A's shared field). */
const INBOX_SECRET = `yk${randomBytes(6).toString('hex')}`;
const YEAR = new Date().getUTCFullYear();
const FIELD = square(-60.5, -33.9, 0.02);
const POINT = 'POINT(-60.495 -33.895)';
/** A zoning inside FIELD, its zone named with the secret. */
const MAP_GEOJSON = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-60.499, -33.899],
            [-60.49, -33.899],
            [-60.49, -33.89],
            [-60.499, -33.89],
            [-60.499, -33.899],
          ],
        ],
      },
      properties: { nombre: `zona ${SECRET}`, id: 0 },
    },
  ],
};
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.from(`owner image ${SECRET}`),
  randomBytes(64),
]);
const SCALE_TEMPLATE = (name: string) => ({
  template_name: name,
  layer_name: 'sentinel2',
  operation: 'ndvi1',
  type_distribution: 'equidistant',
  cant_intervals: 2,
  range_min: 0,
  range_max: 1,
  colors_scale: {
    colors: [
      [255, 0, 0],
      [0, 255, 0],
    ],
    scale: [0, 0.5, 1],
  },
});
const md5 = (content: Buffer | string) => createHash('md5').update(content).digest('base64');
const SENSORS = '/sensors/v2/providers';

interface Owner {
  user: TestUser;
  fieldId: number;
  fieldUuid: string;
  farmId: number;
  farmUuid: string;
  farmTagId: number;
  rotationUuid: string;
  paddockUuid: string;
  herdUuid: string;
  spotUuid: string;
  spotGroupUuid: string;
  textUuid: string;
  imageUuid: string;
  spotTagUuid: string;
  sampleSetUuid: string;
  groupUuid: string;
  variableUuid: string;
  jobUuid: string;
  inboxItemId: string;
  sheet: string;
  mapId: number;
  scaleTemplateId: number;
  uploadId: string;
  webhookUuid: string;
  samplingUuid: string;
  inputUuid: string;
  inputId: number;
  labourUuid: string;
  workOrderUuid: string;
}

/** What an attacker owns: its own field, farm tag, paddock, herd and spot, to mix with A's ids. */
interface Own {
  token: string;
  userId: number;
  fieldId: number;
  farmId: number;
  farmTagId: number;
  paddockUuid: string;
  herdUuid: string;
  spotUuid: string;
}

async function ok(response: Promise<{ status: number; body: any; text: string }>, what: string) {
  const answer = await response;
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body;
}

async function fieldOf(user: TestUser, name: string) {
  const { fieldId, farmId } = await createField(user, { name, farmName: name.slice(0, 40), shape: FIELD });
  const listing = await ok(call('GET', '/api/getfields', { token: user.token }), 'getfields');
  const farm = listing.user.farms[farmId];
  return { fieldId, farmId, fieldUuid: farm.fields[fieldId].uuid as string, farmUuid: farm.uuid as string };
}

async function paddockAndHerd(token: string, fieldId: number, name: string) {
  const paddock = await ok(
    call('POST', '/livestock/paddock', {
      token,
      json: {
        field_id: fieldId,
        shape: square(-60.499, -33.899, 0.008),
        date: '2026-05-10T12:00:00Z',
        name: `P ${name}`,
      },
    }),
    'paddock',
  );
  const herd = await ok(
    call('POST', '/livestock/herd', {
      token,
      json: {
        type_id: 4,
        animal_count: 10,
        paddock_uuid: paddock.data.paddock_uuid,
        weight: 4000,
        weight_unit: 'kg',
        herd_name: `H ${name}`,
        field_id: fieldId,
      },
    }),
    'herd',
  );
  return { paddockUuid: paddock.data.paddock_uuid as string, herdUuid: herd.data.herd_uuid as string };
}

async function farmTag(token: string, farmId: number, name: string): Promise<number> {
  return (
    await ok(
      call('POST', '/api/tags_campos/tag', {
        token,
        query: { desc: name.slice(0, 100), color: 'aa00cc', id_campo: farmId },
      }),
      'farm tag',
    )
  ).id_tag;
}

async function setUpOwner(): Promise<Owner> {
  const user = await newUser();
  const token = user.token;
  const field = await fieldOf(user, `A ${SECRET} field`);
  const { fieldId, farmId } = field;
  await ok(
    call('PATCH', '/api/farms/metadata', { token, json: { farm_id: farmId, metadata: { note: SECRET } } }),
    'metadata',
  );
  const farmTagId = await farmTag(token, farmId, `A ${SECRET}`);
  await ok(call('POST', '/api/fields/v2/tag', { token, json: { field_id: fieldId, tag_id: farmTagId } }), 'field tag');
  const rotation = await ok(
    call('POST', '/rotations', {
      token,
      json: [
        {
          field_id: fieldId,
          crop_id: 1,
          yeargroup: YEAR,
          start_date: `${YEAR}-10-01T00:00:00Z`,
          end_date: `${YEAR + 1}-03-31T00:00:00Z`,
        },
      ],
    }),
    'rotation',
  );
  const rotationUuid = rotation.data.created_ones[0].rotation_uuid as string;
  await ok(call('POST', `/rotations/variety/${rotationUuid}`, { token, json: { varieties: [101] } }), 'variety');
  const livestock = await paddockAndHerd(token, fieldId, SECRET);
  const sampling = await ok(
    internal('/internal/samplings', {
      sampling_name: `Muestreo ${SECRET}`,
      field_id: fieldId,
      yeargroup: YEAR,
      zoning: { info: {}, type: 'none' },
      analysis: { [`A ${SECRET}`]: [] },
      groups: [],
      points: [],
    }),
    'sampling',
  );
  const map = await ok(
    call('POST', '/api/users/me/maps', {
      token,
      json: { nombre: `Mapa ${SECRET}`, id_lote: fieldId, id_tipo: 1, geojson: MAP_GEOJSON },
    }),
    'map',
  );
  const input = (
    await ok(call('POST', '/registro_campo/insumo', { token, json: [{ name: `Insumo ${SECRET}` }] }), 'input')
  ).created[0];
  const labour = await ok(
    call('POST', '/activities/labour', {
      token,
      json: {
        labour_type_id: 1,
        yeargroup: YEAR,
        date: `${YEAR}-11-20`,
        field_id: fieldId,
        rotation_uuid: rotationUuid,
        observations: `L ${SECRET}`,
        inputs: [{ uuid: input.uuid, dose: 1, unit: 'L/ha' }],
      },
    }),
    'labour',
  );
  const workOrderUuid = uuidV1();
  await ok(
    call('POST', '/api/work_orders', {
      token,
      json: {
        uuid: workOrderUuid,
        labours: [labour.data.uuid],
        date: `${YEAR}-11-21`,
        yeargroup: YEAR,
        name: `OT ${SECRET}`,
      },
    }),
    'work order',
  );

  const spotTagUuid = uuidV1();
  await ok(call('POST', '/spots/tags', { token, json: { tag: `T ${SECRET}`, uuid: spotTagUuid } }), 'spot tag');
  const [textUuid, imageUuid, sampleSetUuid, spotGroupUuid] = [uuidV1(), uuidV1(), uuidV1(), uuidV1()];
  const spot = await ok(
    call('POST', '/spots/spot', {
      token,
      json: {
        field_id: fieldId,
        shape: POINT,
        name: `S ${SECRET}`,
        group_uuid: spotGroupUuid,
        tags: [{ tag: `T ${SECRET}`, uuid: spotTagUuid }],
        texts: [
          {
            uuid: textUuid,
            text: `X ${SECRET}`,
            timestamp_usr: '2026-05-10T10:00:00Z',
            imgs: [{ coordinate: POINT, uuid: imageUuid }],
          },
        ],
        data: { variables: [{ name: `pH ${SECRET}`, unit_id: 8, value: 6.1 }] },
      },
    }),
    'spot',
  );
  // a second spot, in a sample set (lists without a sample-set filter leave such spots out)
  await ok(
    call('POST', '/spots/spot', {
      token,
      json: {
        field_id: fieldId,
        shape: POINT,
        name: `Sample ${SECRET}`,
        sample_set: { sample_set_uuid: sampleSetUuid, sample_set_type: 'soil_sampling' },
      },
    }),
    'sample spot',
  );
  const image = new FormData();
  image.set('img', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  await ok(call('PUT', '/api/spots/msgs/imgs', { token, query: { uuid: imageUuid }, body: image }), 'image');

  const group = await ok(
    call('POST', `${SENSORS}/variablegroups`, {
      token,
      json: { group_name: `G ${SECRET}`, variables: [{ variable_name: `W ${SECRET}` }] },
    }),
    'group',
  );
  const groupUuid = group.data.group_uuid as string;
  const variableUuid = group.data.variables[0].variable_uuid as string;
  await ok(
    call('POST', `${SENSORS}/values/variables`, {
      token,
      json: { data: [{ variable_uuid: variableUuid, values: [4242.125], timestamps: ['2026-05-10T10:00:00Z'] }] },
    }),
    'values',
  );
  const job = await ok(
    call('POST', `${SENSORS}/values/bulk`, { token, json: { size_bytes: 10, md5: md5('0123456789') } }),
    'bulk job',
  );

  for (const [scope, id] of [
    ['fields', fieldId],
    ['farms', farmId],
    ['users', user.uid],
  ] as const) {
    await ok(
      call('POST', `/api/mktplace/storage/${scope}`, {
        token,
        query: { operation: 'PUT' },
        json: { id, key: 'secret', data: { s: SECRET } },
      }),
      `kv ${scope}`,
    );
  }
  await ok(
    call('POST', '/api/mktplace/storage/users', {
      token,
      query: { operation: 'PUT' },
      json: { id: user.uid, key: 'extension_only', data: { s: EXTENSION_SECRET } },
    }),
    'kv of the user and extension',
  );
  await ok(
    call('POST', '/api/mktplace/filestorage/fields', {
      token,
      query: { operation: 'PUT' },
      json: { key: 'doc', original_file_name: `${SECRET}.pdf`, md5: md5('file'), file_size_kb: 1, field: fieldId },
    }),
    'file',
  );

  const share = {
    field_name: `F ${INBOX_SECRET}`,
    field_id: fieldId,
    field_uuid: field.fieldUuid,
    farm_id: farmId,
    farm_uuid: field.farmUuid,
    source_user_name: INBOX_SECRET,
  };
  await ok(
    internal('/nc-internal/events', {
      event_name: 'FIELD_SHARE.V1',
      data: { user_ids: [user.id], payload: { fields: [share] } },
    }),
    'event',
  );
  const inboxItemId = await eventually(async () => {
    const items = (await call('GET', '/nc/inbox', { token })).body?.data?.items ?? [];
    return items[0]?.item_id as string | undefined;
  });
  const sheet = await fetch(new URL(`/api/spots/sheet?format=csv&field_id=${fieldId}`, stack().baseUrl), {
    headers: { authorization: `Bearer ${token}` },
  });
  const scale = await ok(
    call('POST', '/api/layers/scale_template', { token, json: SCALE_TEMPLATE(`Scale ${SECRET}`) }),
    'scale template',
  );
  // a layer file kept for POST /raster: points inside A's field
  const layerZip = new JSZip();
  layerZip.file('rinde.csv', `lat,lon,Rinde ${SECRET}\n-33.895,-60.495,9000\n-33.89,-60.49,9500\n`);
  const layerForm = new FormData();
  layerForm.set('file', new Blob([await layerZip.generateAsync({ type: 'nodebuffer' })]), 'rinde.zip');
  const layerFile = await ok(call('POST', '/files', { token, body: layerForm }), 'layer file');
  const webhook = await ok(
    call('POST', '/api/webhooks', {
      token,
      json: { url: 'http://127.0.0.1:9/hooks', events: ['FIELD_CREATED.V1'], description: `Hook ${SECRET}` },
    }),
    'webhook',
  );
  return {
    user,
    ...field,
    farmTagId,
    rotationUuid,
    ...livestock,
    spotUuid: spot.spot_uuid,
    spotGroupUuid,
    textUuid,
    imageUuid,
    spotTagUuid,
    sampleSetUuid,
    groupUuid,
    variableUuid,
    jobUuid: job.data.job_uuid,
    inboxItemId,
    sheet: (await sheet.text()).replace(/6\.1/g, '9.9'),
    mapId: map.id as number,
    scaleTemplateId: scale.scale_template.scale_template_id as number,
    uploadId: layerFile.data.redis_id as string,
    webhookUuid: webhook.data.subscription_uuid as string,
    samplingUuid: sampling.data.sampling_uuid as string,
    inputUuid: input.uuid as string,
    inputId: input.id as number,
    labourUuid: labour.data.uuid as string,
    workOrderUuid,
  };
}

async function setUpAttacker(user: TestUser): Promise<Own> {
  const { fieldId, farmId } = await fieldOf(user, unique('own'));
  const livestock = await paddockAndHerd(user.token, fieldId, 'own');
  const spot = await ok(
    call('POST', '/spots/spot', { token: user.token, json: { field_id: fieldId, shape: POINT, name: 'own spot' } }),
    'own spot',
  );
  return {
    token: user.token,
    userId: user.id,
    fieldId,
    farmId,
    farmTagId: await farmTag(user.token, farmId, unique('own')),
    ...livestock,
    spotUuid: spot.spot_uuid,
  };
}

// --- probes ------------------------------------------------------------------------------------

/**
 * What an attempt reaches: a record of A's field or farm (`field`), of A's user (`user`), of A's
 * user and extension (`extension`), of A's field and extension (`shared-extension`: storage of a
 * field or farm, readable by whoever reads the field), or the internal API.
 */
type Level = 'field' | 'user' | 'extension' | 'shared-extension' | 'internal';
type Attacker = 'B' | 'R' | 'E';

interface Attempt {
  kind: 'read' | 'write';
  level: Level;
  path?: Record<string, string>;
  query?: Record<string, string | number>;
  json?: unknown;
  form?: Record<string, string | number>;
  body?: () => FormData;
  headers?: Record<string, string>;
  /** A streaming answer: read for a moment, then hang up. */
  stream?: true;
  /** What must not show in the answer (default SECRET). */
  secret?: string;
}

type Probe = (a: Owner, own: Own) => Attempt[];

/** Whether `attacker` must be refused: B always; R may read A's field and farm; E may do what A's user does. */
function mustRefuse(attacker: Attacker, attempt: Attempt): boolean {
  if (attacker === 'B') return true;
  if (attacker === 'R') return attempt.kind === 'write' || !['field', 'shared-extension'].includes(attempt.level);
  return ['internal', 'extension', 'shared-extension'].includes(attempt.level);
}

const read = (level: Level, rest: Omit<Attempt, 'kind' | 'level'>): Attempt => ({ kind: 'read', level, ...rest });
const write = (level: Level, rest: Omit<Attempt, 'kind' | 'level'>): Attempt => ({ kind: 'write', level, ...rest });
const spotFilters = (a: Owner): Array<Record<string, string | number>> => [
  { uuid: a.spotUuid },
  { field_id: a.fieldId },
  { farm_id: a.farmId },
  { group_uuid: a.spotGroupUuid },
  { sample_set_uuid: a.sampleSetUuid },
  { tag_uuid: a.spotTagUuid },
];
const storage = (scope: string, operation: string, json: unknown, kind: Attempt['kind']): Attempt => ({
  kind,
  level: scope === 'users' ? 'extension' : 'shared-extension',
  path: { scope },
  query: { operation },
  json,
});
const kvAttempts = (a: Owner, own: Own, scopeInQuery = false): Attempt[] => {
  const attempts = [
    storage('fields', 'GET', { ids: [a.fieldId], keys: [] }, 'read'),
    storage('fields', 'GET', { ids: [a.fieldUuid], keys: ['secret'] }, 'read'),
    storage('farms', 'GET', { ids: [a.farmId], keys: [] }, 'read'),
    storage('users', 'GET', { ids: [a.user.uid], keys: [] }, 'read'),
    storage('fields', 'PUT', { id: a.fieldId, key: 'secret', data: { s: 'changed' }, overwrite: true }, 'write'),
    storage('fields', 'PATCH', { id: a.fieldId, key: 'secret', data: { s: 'changed' } }, 'write'),
    storage('farms', 'PUT', { id: a.farmUuid, key: 'other', data: { s: 'new' } }, 'write'),
    storage('users', 'PUT', { id: a.user.uid, key: 'secret', data: { s: 'changed' }, overwrite: true }, 'write'),
    storage('fields', 'DELETE', { id: a.fieldId, keys: ['secret'] }, 'write'),
    storage('users', 'DELETE', { id: a.user.uid, keys: ['secret'] }, 'write'),
  ];
  void own;
  return scopeInQuery
    ? attempts.map(({ path, query, ...rest }) => ({ ...rest, query: { ...query, scope: path!.scope! } }))
    : attempts;
};

const PROBES: Record<string, Probe> = {
  // fields and farms
  createField: (a) => [write('field', { form: { nombre: 'intruder', shape: FIELD, idcampo: a.farmId } })],
  deleteField: (a) => [write('field', { query: { lote: a.fieldId } })],
  getFarmMetadata: (a) => [read('field', { query: { farms_id: a.farmId } })],
  patchFarmMetadata: (a) => [write('field', { json: { farm_id: a.farmId, metadata: { note: 'changed', extra: 1 } } })],
  getSeasonShapeLimits: (a) => [read('field', { query: { field_id: a.fieldId } })],
  getSeasonShapeLock: (a) => [read('field', { query: { field_id: a.fieldId } })],
  postSeasonShape: (a) => [
    write('field', { json: { field_id: a.fieldId, campaign: YEAR, shape: square(-60.499, -33.899, 0.015) } }),
  ],
  // farm and field tags
  linkFieldTag: (a, own) => [
    write('field', { json: { field_id: a.fieldId, tag_id: own.farmTagId } }),
    write('field', { json: { field_uuid: a.fieldUuid, tag_id: own.farmTagId } }),
    write('user', { json: { field_id: own.fieldId, tag_id: a.farmTagId } }),
  ],
  unlinkFieldTag: (a) => [
    write('field', { query: { field_id: a.fieldId, tag_id: a.farmTagId } }),
    write('field', { query: { field_uuid: a.fieldUuid, tag_id: a.farmTagId } }),
  ],
  linkFarmTag: (a, own) => [
    write('field', { query: { id_tag: own.farmTagId, id_campo: a.farmId } }),
    write('user', { query: { id_tag: a.farmTagId, id_campo: own.farmId } }),
  ],
  unlinkFarmTag: (a) => [write('field', { query: { id_tag: a.farmTagId, id_campo: a.farmId } })],
  createFarmTag: (a) => [write('field', { query: { desc: 'intruder', color: '00ff00', id_campo: a.farmId } })],
  updateFarmTag: (a) => [write('user', { query: { id_tag: a.farmTagId, desc: 'changed', color: '00ff00' } })],
  getFarmTags: (a) => [
    read('user', { query: { id_tag: a.farmTagId } }),
    read('user', { query: { id_campo: a.farmId } }),
  ],
  deleteFarmTag: (a) => [write('user', { query: { id_tag: a.farmTagId } })],
  // rotations
  listRotations: (a) => [
    read('field', { query: { fields_id: a.fieldId } }),
    read('field', { query: { fields_uuid: a.fieldUuid } }),
    read('field', { query: { farms_id: a.farmId } }),
    read('field', { query: { farms_uuid: a.farmUuid } }),
  ],
  createRotations: (a) => [
    write('field', {
      json: [
        {
          field_id: a.fieldId,
          crop_id: 1,
          yeargroup: YEAR - 1,
          start_date: `${YEAR - 1}-10-01T00:00:00Z`,
          end_date: `${YEAR}-03-31T00:00:00Z`,
        },
      ],
    }),
  ],
  getRotation: (a) => [read('field', { path: { rotation_uuid: a.rotationUuid } })],
  patchRotation: (a) => [write('field', { path: { rotation_uuid: a.rotationUuid }, json: { ha: 1, crop_id: 2 } })],
  getRotationVarieties: (a) => [read('field', { path: { rotation_uuid: a.rotationUuid } })],
  addRotationVarieties: (a) => [
    write('field', { path: { rotation_uuid: a.rotationUuid }, json: { varieties: [102] } }),
  ],
  removeRotationVariety: (a) => [
    write('field', { path: { rotation_uuid: a.rotationUuid }, query: { variety_id: 101 } }),
  ],
  // livestock
  createHerd: (a, own) => [
    write('field', {
      json: {
        type_id: 4,
        animal_count: 1,
        paddock_uuid: a.paddockUuid,
        weight: 1,
        weight_unit: 'kg',
        herd_name: 'intruder',
        field_id: a.fieldId,
      },
    }),
    write('field', {
      json: {
        type_id: 4,
        animal_count: 1,
        paddock_uuid: a.paddockUuid,
        weight: 1,
        weight_unit: 'kg',
        herd_name: 'intruder',
        field_id: own.fieldId,
      },
    }),
    write('field', {
      json: {
        type_id: 4,
        animal_count: 1,
        paddock_uuid: null,
        weight: 1,
        weight_unit: 'kg',
        herd_name: 'intruder',
        field_id: own.fieldId,
        herd_uuid: a.herdUuid,
      },
    }),
  ],
  updateHerd: (a) => [
    write('field', {
      path: { herd_uuid: a.herdUuid },
      json: { herd_name: 'changed', new_animals: { new_animals_count: 0, weight: 0, weight_unit: 'kg' } },
    }),
  ],
  deleteHerd: (a) => [write('field', { path: { herd_uuid: a.herdUuid } })],
  getHerdHistory: (a) => [read('field', { path: { herd_uuid: a.herdUuid } })],
  listPaddocks: (a) => [read('field', { query: { field_id: a.fieldId } })],
  createPaddock: (a) => [
    write('field', {
      json: {
        field_id: a.fieldId,
        shape: square(-60.489, -33.889, 0.005),
        date: '2026-05-10T12:00:00Z',
        name: 'intruder',
      },
    }),
  ],
  getPaddock: (a, own) => [
    read('field', { path: { paddock_uuid: a.paddockUuid } }),
    read('field', { path: { paddock_uuid: a.paddockUuid }, query: { field_id: own.fieldId } }),
  ],
  updatePaddock: (a) => [write('field', { path: { paddock_uuid: a.paddockUuid }, json: { name: 'changed' } })],
  deletePaddock: (a) => [write('field', { path: { paddock_uuid: a.paddockUuid } })],
  recordExit: (a) => [
    write('field', {
      json: {
        destination_type: 1,
        animal_count: 1,
        weight: 1,
        weight_unit: 'kg',
        origin_herd_uuid: a.herdUuid,
        transaction_date: '2026-05-11T12:00:00Z',
      },
    }),
  ],
  movePaddock: (a, own) => [
    write('field', {
      json: {
        origin_herd_uuid: a.herdUuid,
        origin_paddock_uuid: a.paddockUuid,
        destination_paddock_uuid: own.paddockUuid,
        transaction_date: '2026-05-11T12:00:00Z',
        animal_count: 1,
        weight: 1,
        weight_unit: 'kg',
      },
    }),
    write('field', {
      json: {
        origin_herd_uuid: own.herdUuid,
        origin_paddock_uuid: own.paddockUuid,
        destination_paddock_uuid: a.paddockUuid,
        destination_field: a.fieldId,
        transaction_date: '2026-05-11T12:00:00Z',
        animal_count: 1,
        weight: 1,
        weight_unit: 'kg',
      },
    }),
  ],
  // storage
  keyValueStorage: (a, own) => kvAttempts(a, own),
  keyValueStorageScopes: (a, own) => kvAttempts(a, own, true),
  fileStorage: (a) => [
    storage('fields', 'GET', { ids: [a.fieldId], keys: [] }, 'read'),
    storage(
      'fields',
      'PUT',
      { key: 'doc', original_file_name: 'x.pdf', md5: md5('x'), file_size_kb: 1, field: a.fieldId, overwrite: true },
      'write',
    ),
    storage(
      'fields',
      'PATCH',
      { key: 'doc', original_file_name: 'x.pdf', md5: md5('x'), file_size_kb: 1, field: a.fieldUuid },
      'write',
    ),
    storage('fields', 'DELETE', { keys: ['doc'], field: a.fieldId }, 'write'),
    storage(
      'users',
      'PUT',
      { key: 'doc', original_file_name: 'x.pdf', md5: md5('x'), file_size_kb: 1, user: a.user.uid },
      'write',
    ),
  ],
  // notifications
  postInternalEvent: (a) => [
    write('internal', { json: { event_name: 'TEST.V1', data: { user_ids: [a.user.id] } } }),
    write('internal', {
      json: { event_name: 'TEST.V1', data: { user_ids: [a.user.id] } },
      headers: { 'x-internal-key': 'guessed-key' },
    }),
  ],
  sendTestEvent: (a) => [write('user', { json: { user_ids: [a.user.id] } })],
  dismissInbox: (a) => [write('user', { query: { item_id: a.inboxItemId } })],
  // the change feed: the caller's own; B reads nothing of A's, nobody but A's extension its storage
  listChanges: () => [
    read('field', { query: {} }),
    read('field', { query: { limit: 500 } }),
    read('extension', { query: { limit: 500 }, secret: EXTENSION_SECRET }),
  ],
  notificationStream: () => [read('user', { query: { last_event_id: 0 }, stream: true, secret: INBOX_SECRET })],
  // spots
  getSpotsWithMessages: (a) => spotFilters(a).map((json) => read('field', { json })),
  getSpots: (a) => spotFilters(a).map((json) => read('field', { json })),
  listSpots: (a) => spotFilters(a).map((query) => read('field', { query })),
  createSpotMessages: (a) => [
    write('field', {
      json: { uuid: a.spotUuid, texts: [{ text: 'intruder', timestamp_usr: '2026-05-10T10:00:00Z' }] },
    }),
  ],
  listSpotMessages: (a) => [read('field', { query: { uuid: a.spotUuid } })],
  deleteSpotMessage: (a) => [write('field', { query: { uuid: a.textUuid } })],
  uploadSpotImage: (a) => [
    write('field', {
      query: { uuid: a.imageUuid },
      body: () => {
        const form = new FormData();
        form.set(
          'img',
          new Blob([Buffer.concat([PNG.subarray(0, 16), Buffer.from('intruder')])], { type: 'image/png' }),
          'x.png',
        );
        return form;
      },
    }),
  ],
  downloadSpotImage: (a) => [read('field', { query: { uuid: a.imageUuid } })],
  downloadSpotImageByPath: (a) => [read('field', { path: { uuid: a.imageUuid } })],
  presignSpotImage: (a) => [write('field', { query: { uuid: a.imageUuid, content_type: 'image/png' } })],
  exportSpotSheet: (a) => [
    read('field', { query: { field_id: a.fieldId, format: 'csv' } }),
    read('field', { query: { farm_id: a.farmId, format: 'csv' } }),
    read('field', { query: { tag_uuid: a.spotTagUuid, format: 'csv' } }),
  ],
  importSpotSheet: (a) => [
    write('field', {
      body: () => {
        const form = new FormData();
        form.set('sheet', new Blob([a.sheet]), 'spots.csv');
        return form;
      },
    }),
  ],
  createSpot: (a, own) => [
    write('field', { json: { field_id: a.fieldId, shape: POINT, name: 'intruder' } }),
    write('field', { json: { uuid: a.spotUuid, field_id: a.fieldId, shape: POINT, name: 'intruder' } }),
    write('user', { json: { field_id: own.fieldId, shape: POINT, tags: [{ uuid: a.spotTagUuid }] } }),
    write('user', {
      json: {
        field_id: own.fieldId,
        shape: POINT,
        sample_set: { sample_set_uuid: a.sampleSetUuid, sample_set_type: 'soil_sampling' },
      },
    }),
    write('field', {
      json: {
        field_id: own.fieldId,
        shape: POINT,
        texts: [
          {
            uuid: a.textUuid,
            text: 'intruder',
            timestamp_usr: '2026-05-10T10:00:00Z',
            imgs: [{ coordinate: POINT, uuid: a.imageUuid }],
          },
        ],
      },
    }),
  ],
  patchSpot: (a, own) => [
    write('field', { json: { uuid: a.spotUuid, name: 'changed' } }),
    write('field', { json: { uuid: a.spotUuid, field_id: own.fieldId } }),
    write('user', { json: { uuid: own.spotUuid, tags: [{ uuid: a.spotTagUuid }] } }),
  ],
  deleteSpot: (a) => [write('field', { query: { uuid: a.spotUuid } })],
  createSpotTags: (a) => [
    write('user', { json: { tag: 'intruder', uuid: a.spotTagUuid } }),
    write('user', { json: [{ tag: 'intruder', uuid: a.spotTagUuid }] }),
  ],
  renameSpotTag: (a) => [write('user', { json: { uuid: a.spotTagUuid, tag: 'changed' } })],
  deleteSpotTag: (a) => [write('user', { query: { uuid: a.spotTagUuid } })],
  replaceSpotVariables: (a) => [
    write('field', { json: { uuid: a.spotUuid, variables: [{ name: 'pH', unit_id: 8, value: 1 }] } }),
  ],
  // imagery
  layerDates: (a) => [read('field', { query: { field_id: a.fieldId } })],
  fieldNdvi: (a) => [read('field', { query: { field_id: a.fieldId } })],
  renderLayer: (a, own) => [
    read('field', {
      query: { field_id: a.fieldId, layer_name: 'sentinel2', operation: 'ndvi1', date: `${YEAR}-01-01T14:00:00Z` },
    }),
    read('field', {
      query: {
        field_id: a.fieldId,
        layer_name: 'sentinel2',
        operation: 'rgb1',
        date: `${YEAR}-01-01T14:00:00Z`,
        format: 'image/tiff',
      },
    }),
    // A's scale template on the attacker's own field
    read('user', {
      query: {
        field_id: own.fieldId,
        layer_name: 'sentinel2',
        operation: 'ndvi1',
        date: `${YEAR}-01-01T14:00:00Z`,
        scale_template_id: a.scaleTemplateId,
      },
    }),
  ],
  createLayersFromFile: (a, own) => [
    write('field', {
      json: {
        redis_id: a.uploadId,
        date: `${YEAR}-04-01 00:00:00`,
        lote_id: a.fieldId,
        data: { [`Rinde ${SECRET}`]: { id_layer: 5 } },
      },
    }),
    // A's upload onto the attacker's own field
    write('user', {
      json: {
        redis_id: a.uploadId,
        date: `${YEAR}-04-01 00:00:00`,
        lote_id: own.fieldId,
        data: { [`Rinde ${SECRET}`]: { id_layer: 5 } },
      },
    }),
  ],
  patchScaleTemplate: (a) => [
    write('user', { json: { scale_template_id: a.scaleTemplateId, template_name: 'changed' } }),
  ],
  deleteScaleTemplate: (a) => [write('user', { query: { scale_template_id: a.scaleTemplateId } })],
  // maps
  listMaps: (a) => [read('field', { query: { id_lote: a.fieldId } }), read('field', { query: { id: a.mapId } })],
  createMap: (a) => [
    write('field', { json: { nombre: 'intruder', id_lote: a.fieldId, id_tipo: 1, geojson: MAP_GEOJSON } }),
  ],
  replaceMap: (a) => [
    write('field', { json: { id: a.mapId, nombre: 'changed', id_lote: a.fieldId, id_tipo: 2, geojson: MAP_GEOJSON } }),
  ],
  patchMap: (a) => [write('field', { json: { id: a.mapId, nombre: 'changed' } })],
  deleteMap: (a) => [write('field', { query: { id: a.mapId } })],
  downloadMap: (a) => [
    read('field', {
      body: () => {
        const form = new FormData();
        form.set('id_mapa', String(a.mapId));
        form.set('nombre', 'intruder');
        return form;
      },
    }),
  ],
  // inputs, labours, work orders
  modifyInputs: (a) => [
    write('user', {
      json: [
        { uuid: a.inputUuid, name: 'changed' },
        { id: a.inputId, name: 'changed' },
      ],
    }),
  ],
  deleteInputs: (a) => [write('user', { json: [{ uuid: a.inputUuid }, { id: a.inputId }] })],
  createInputs: (a) => [write('user', { json: [{ uuid: a.inputUuid, name: 'intruder' }] })],
  listLabours: (a) => [
    read('field', { query: { yeargroup: YEAR, fields_id: String(a.fieldId) } }),
    read('field', { query: { yeargroup: YEAR, farm_id: a.farmId } }),
    read('field', { query: { yeargroup: YEAR, field_uuid: a.fieldUuid } }),
    read('field', { query: { yeargroup: YEAR, farm_uuid: a.farmUuid } }),
  ],
  getLabour: (a) => [read('field', { path: { labour_uuid: a.labourUuid } })],
  createLabour: (a, own) => [
    write('field', {
      json: { labour_type_id: 4, yeargroup: YEAR, date: `${YEAR}-11-22`, field_id: a.fieldId, name: 'intruder' },
    }),
    write('field', {
      json: { labour_type_id: 4, yeargroup: YEAR, date: `${YEAR}-11-22`, field_uuid: a.fieldUuid, name: 'intruder' },
    }),
    write('field', {
      json: {
        labour_type_id: 1,
        yeargroup: YEAR,
        date: `${YEAR}-11-22`,
        field_id: own.fieldId,
        rotation_uuid: a.rotationUuid,
      },
    }),
    write('field', {
      json: {
        labour_type_id: 1,
        yeargroup: YEAR,
        date: `${YEAR}-11-22`,
        field_id: own.fieldId,
        inputs: [{ uuid: a.inputUuid, name: 'intruder', dose: 1, unit: 'L/ha' }],
      },
    }),
    write('field', {
      json: { uuid: a.labourUuid, labour_type_id: 4, yeargroup: YEAR, date: `${YEAR}-11-22`, field_id: own.fieldId },
    }),
  ],
  patchLabour: (a) => [
    write('field', { path: { labour_uuid: a.labourUuid }, json: { observations: 'changed', status: 2 } }),
  ],
  deleteLabour: (a) => [write('field', { path: { labour_uuid: a.labourUuid } })],
  createWorkOrder: (a) => [
    // a work order over labours the caller reads is its own record: readers of A's field may, even
    // under the uuid of A's work order (a uuid names a work order within its creator's)
    read('field', { json: { uuid: uuidV1(), labours: [a.labourUuid], date: `${YEAR}-11-21`, yeargroup: YEAR } }),
    read('field', {
      json: {
        uuid: a.workOrderUuid,
        labours: [a.labourUuid],
        date: `${YEAR}-11-21`,
        yeargroup: YEAR,
        name: 'intruder',
      },
    }),
  ],
  replaceWorkOrder: (a) => [
    write('user', {
      path: { work_order_uuid: a.workOrderUuid },
      json: { labours: [a.labourUuid], date: `${YEAR}-11-21`, yeargroup: YEAR },
    }),
  ],
  deleteWorkOrder: (a) => [write('user', { path: { work_order_uuid: a.workOrderUuid } })],
  downloadWorkOrder: (a) => [
    read('user', { path: { work_order_uuid: a.workOrderUuid }, query: { type: 'pdf' } }),
    read('user', { path: { work_order_uuid: a.workOrderUuid }, query: { type: 'excel' } }),
  ],
  listWorkOrders: () => [read('user', { query: { yeargroup: YEAR } })],
  // samplings
  listSamplings: (a) => [
    read('field', { query: { field_id: a.fieldId } }),
    read('field', { query: { sampling_uuid: a.samplingUuid } }),
  ],
  listSamplingAnalyses: (a) => [
    read('field', { query: { field_id: a.fieldId } }),
    read('field', { query: { farm_id: a.farmId } }),
    read('field', { query: { sampling_uuid: a.samplingUuid } }),
  ],
  internalCreateSampling: (a) => [
    write('internal', {
      json: {
        sampling_name: 'intruder',
        field_id: a.fieldId,
        yeargroup: YEAR,
        zoning: { info: {}, type: 'none' },
        analysis: {},
        groups: [],
        points: [],
      },
    }),
  ],
  createWebhookSubscription: (a) => [
    write('extension', {
      json: { subscription_uuid: a.webhookUuid, url: 'http://127.0.0.1:9/intruder', events: ['SPOT_CREATED.V1'] },
    }),
  ],
  deleteWebhookSubscription: (a) => [write('extension', { query: { subscription_uuid: a.webhookUuid } })],
  listWebhookDeliveries: (a) => [read('extension', { query: { subscription_uuid: a.webhookUuid } })],
  rasterizeSampling: (a) => [
    write('field', {
      path: { sampling_uuid: a.samplingUuid },
      json: {
        layers: [
          { analysis: `A ${SECRET}`, variable_name: 'P', layer_date: `${YEAR}-05-01T00:00:00Z`, layer_name: 'P_20' },
        ],
        interpolation_polygon: true,
      },
    }),
  ],
  internalCloseSampling: (a) => [
    write('internal', { path: { sampling_uuid: a.samplingUuid }, json: { closed_at: '2026-06-01T00:00:00Z' } }),
  ],
  // sensors
  getValuesBulkJob: (a) => [read('extension', { path: { job_uuid: a.jobUuid } })],
  insertValues: (a) => [
    write('extension', {
      json: { data: [{ variable_uuid: a.variableUuid, values: [1], timestamps: ['2026-05-10T10:00:00Z'] }] },
    }),
  ],
  readValues: (a) => [
    read('extension', {
      query: { variable_uuid: a.variableUuid, from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' },
    }),
  ],
  listVariableGroups: (a) => [read('extension', { query: { group_uuid: a.groupUuid } })],
  createVariableGroup: (a) => [
    write('extension', {
      json: {
        group_uuid: a.groupUuid,
        group_name: 'intruder',
        variables: [{ variable_uuid: a.variableUuid, variable_name: 'intruder' }],
      },
    }),
  ],
  updateVariableGroup: (a) => [
    write('extension', { json: { group_uuid: a.groupUuid, group_name: 'changed' } }),
    write('extension', { json: { group_uuid: a.groupUuid, deleted_at: '2026-05-10T10:00:00Z' } }),
  ],
  deleteVariableGroup: (a) => [write('extension', { query: { group_uuid: a.groupUuid } })],
  createVariable: (a) => [
    write('extension', { json: { group_uuid: a.groupUuid, variable: { variable_name: 'intruder' } } }),
  ],
  updateVariable: (a) => [write('extension', { json: { variable_uuid: a.variableUuid, variable_name: 'changed' } })],
  deleteVariable: (a) => [write('extension', { query: { variable_uuid: a.variableUuid } })],
  // the internal API: a tenant's token is no internal key
  internalCreateShare: (a, own) => [
    write('internal', { json: { user_id: own.userId, farm_id: a.farmId, permission: 'edit' } }),
  ],
  internalDeleteShare: (a, own) => [write('internal', { json: { user_id: own.userId, farm_id: a.farmId } })],
  internalCreateSupervision: (a, own) => [
    write('internal', { json: { supervisor_id: own.userId, user_id: a.user.id, permission: 'edit' } }),
  ],
  internalCreateToken: (a) => [write('internal', { json: { user_id: a.user.id, claims: ['*'] } })],
  internalCreateUser: () => [write('internal', { json: { user_name: 'intruder', space_id: 1 } })],
};

// --- running an attempt ----------------------------------------------------------------------

interface Outcome {
  status: number;
  text: string;
  ms: number;
}

async function attempt(operation: Operation, token: string, a: Attempt): Promise<Outcome> {
  let path = operation.path;
  for (const [name, value] of Object.entries(a.path ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
  if (/[{}]/.test(path)) throw new Error(`${operation.id}: path parameters missing in ${path}`);
  const started = performance.now();
  if (a.stream || a.body) {
    const url = new URL(path, stack().baseUrl);
    for (const [key, value] of Object.entries(a.query ?? {})) url.searchParams.set(key, String(value));
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), a.stream ? 1500 : 20_000);
    let text = '';
    let status = 0;
    try {
      const response = await fetch(url, {
        method: operation.method,
        headers: { authorization: `Bearer ${token}`, ...a.headers },
        body: a.body?.(),
        signal: abort.signal,
      });
      status = response.status;
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('latin1');
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    } finally {
      clearTimeout(timer);
    }
    return { status, text, ms: Math.round(performance.now() - started) };
  }
  const response = await call(operation.method, path, {
    token,
    query: a.query,
    json: a.json,
    form: a.form,
    headers: a.headers,
  });
  return { status: response.status, text: response.text, ms: Math.round(performance.now() - started) };
}

// --- A's data, read back -----------------------------------------------------------------------

async function snapshot(a: Owner): Promise<Record<string, unknown>> {
  const token = a.user.token;
  const get = async (path: string, query?: Record<string, string | number>) =>
    (await call('GET', path, { token, query })).body;
  const post = async (path: string, json: unknown, query?: Record<string, string>) =>
    (await call('POST', path, { token, json, query })).body;
  const image = await fetch(new URL(`/api/spots/msgs/imgs?uuid=${a.imageUuid}`, stack().baseUrl), {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    fields: await get('/api/getfields'),
    metadata: await get('/api/farms/metadata'),
    farmTags: await get('/api/tags_campos/tag'),
    limits: await get('/api/fields/v2/shape/limits', { field_id: a.fieldId }),
    rotations: await get('/api/rotations'),
    varieties: await get(`/rotations/variety/${a.rotationUuid}`),
    paddocks: await get('/livestock/paddock', { field_id: a.fieldId }),
    herds: await get('/livestock/herd'),
    history: await get(`/livestock/herd/${a.herdUuid}/transactions`),
    spots: await post('/spots/all', { field_id: a.fieldId, page_size: -1 }),
    sampleSpots: await post('/spots/all', { sample_set_uuid: a.sampleSetUuid, page_size: -1 }),
    spotTags: await get('/spots/tags', { user: 'true', general: 'false' }),
    messages: await get('/spots/msgs', { uuid: a.spotUuid }),
    image: [image.status, md5(Buffer.from(await image.arrayBuffer()))],
    groups: await get(`${SENSORS}/variablegroups`),
    values: await get(`${SENSORS}/values/variables`, {
      variable_uuid: a.variableUuid,
      from: '2026-01-01T00:00:00Z',
      to: '2027-01-01T00:00:00Z',
    }),
    job: await get(`${SENSORS}/values/bulk/${a.jobUuid}`),
    kvFields: await post('/api/mktplace/storage/fields', { keys: [] }, { operation: 'GET' }),
    kvFarms: await post('/api/mktplace/storage/farms', { keys: [] }, { operation: 'GET' }),
    kvUser: await post('/api/mktplace/storage/users', { keys: [] }, { operation: 'GET' }),
    files: await post('/api/mktplace/filestorage/fields', { keys: [] }, { operation: 'GET' }),
    inputs: await get('/api/registro_campo/insumos', { user_input: 'true' }),
    labours: await get('/activities/labour', { yeargroup: YEAR }),
    workOrders: await get('/api/work_orders', { yeargroup: YEAR }),
    inbox: await get('/nc/inbox', { page_size: 100 }),
    inboxCount: await get('/nc/inbox/count'),
    scaleTemplates: await get('/api/layers/scale_template'),
    webhooks: await get('/api/webhooks'),
  };
}

// --- existence answered as absence ------------------------------------------------------------

/** The same hex digits' shape (version and variant of a uuid kept), other digits: an id that exists nowhere. */
const reshuffled = (id: string) =>
  id.replace(/[0-9a-f]/gi, (digit, at: number) =>
    /^[0-9a-f]{8}-/i.test(id) && (at === 14 || at === 19) ? digit : randomBytes(1)[0]!.toString(16).slice(-1),
  );

/** A's world with every id replaced by one that exists nowhere (names, secrets and tokens kept). */
function ghostOf(a: Owner): Owner {
  const ghost = { ...a } as Record<string, unknown>;
  for (const [key, value] of Object.entries(a)) {
    if (key === 'sheet' || key === 'user') continue;
    if (typeof value === 'number') ghost[key] = value + 1_000_000;
    else if (typeof value === 'string') ghost[key] = reshuffled(value);
  }
  ghost.user = { ...a.user, id: a.user.id + 1_000_000, uid: reshuffled(a.user.uid) };
  const owner = ghost as unknown as Owner;
  // the sheet names A's spots by uuid: the ghost's names the ghost's
  owner.sheet = a.sheet.replaceAll(a.spotUuid, owner.spotUuid);
  return owner;
}

/** Each of A's ids (as text, lower case) and the ghost's id in its place. */
function idPairs(a: Owner, ghost: Owner): Map<string, string> {
  const pairs = new Map<string, string>();
  const add = (mine: unknown, theirs: unknown) => {
    if (String(mine) !== String(theirs)) pairs.set(String(mine).toLowerCase(), String(theirs).toLowerCase());
  };
  for (const [key, value] of Object.entries(a)) if (key !== 'sheet' && key !== 'user') add(value, (ghost as any)[key]);
  add(a.user.id, ghost.user.id);
  add(a.user.uid, ghost.user.uid);
  return pairs;
}

/** Request ids and the like: they differ between any two answers. */
const VOLATILE_KEY = /^(request_id|requestId|x-request-id)$/i;
/** What a successful create answers of the record it just made: its own id, uuid, times and secret. */
const NEW_RECORD_KEY = /(^|_)(id|ids|uuid|uuids)$|(^|_)(at|ts)$|^fecha|timestamp|date|secret/i;

/** Whether two texts say the same, token by token, when each of A's ids in one is the ghost's id in the other. */
function sameText(x: string, y: string, pairs: Map<string, string>): boolean {
  const tokens = (text: string) => text.split(/([0-9A-Za-z][0-9A-Za-z-]*)/);
  const [tx, ty] = [tokens(x), tokens(y)];
  return (
    tx.length === ty.length &&
    tx.every((token, i) => token === ty[i] || pairs.get(token.toLowerCase()) === ty[i]!.toLowerCase())
  );
}

/** Whether two JSON values say the same (see sameText); `fresh`: in a 2xx answer, a new record's own ids may differ. */
function sameValue(x: unknown, y: unknown, pairs: Map<string, string>, fresh: boolean, key = ''): boolean {
  if (fresh && NEW_RECORD_KEY.test(key) && typeof x === typeof y && (typeof x === 'string' || typeof x === 'number'))
    return true;
  // a new spot's code (three groups of letters), not a numeric answer code
  if (fresh && key === 'code' && typeof x === 'string' && typeof y === 'string') return true;
  if (typeof x === 'string' && typeof y === 'string') return sameText(x, y, pairs);
  if (typeof x === 'number' && typeof y === 'number') return x === y || pairs.get(String(x)) === String(y);
  if (Array.isArray(x) && Array.isArray(y))
    return x.length === y.length && x.every((item, i) => sameValue(item, y[i], pairs, fresh, key));
  if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
    const [kx, ky] = [
      Object.keys(x).filter((k) => !VOLATILE_KEY.test(k)),
      Object.keys(y).filter((k) => !VOLATILE_KEY.test(k)),
    ];
    if (kx.length !== ky.length) return false;
    return kx.every((k, i) => {
      const other = ky.find((candidate) => candidate === k || pairs.get(k.toLowerCase()) === candidate.toLowerCase());
      void i;
      return other !== undefined && sameValue((x as any)[k], (y as any)[other], pairs, fresh, k);
    });
  }
  return x === y;
}

/** Whether an answer to A's id and one to an id that exists nowhere are the same, status and body. */
function sameAnswer(foreign: Outcome, unknown: Outcome, pairs: Map<string, string>): boolean {
  if (foreign.status !== unknown.status) return false;
  const parse = (text: string) => {
    try {
      return { json: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  };
  const [fx, ux] = [parse(foreign.text), parse(unknown.text)];
  if (fx && ux) return sameValue(fx.json, ux.json, pairs, foreign.status < 300);
  // files (PDF, zip, images) of a 2xx answer name nothing of A's: the status says it all
  if (foreign.status < 300 && !fx && !ux) return true;
  return sameText(foreign.text, unknown.text, pairs);
}

// --- the matrix --------------------------------------------------------------------------------

const covered = operations.filter((op) => PROBES[op.probe]);

describe('cross-tenant matrix: coverage', () => {
  it('has a probe for every operation that takes an id, and none for operations that do not exist', () => {
    const missing = operations
      .filter((op) => op.idNames.length && !PROBES[op.probe])
      .map((op) => `${op.id} (${op.method} ${op.path}: ${op.idNames.join(', ')})`);
    expect(missing).toEqual([]);
    const known = new Set(operations.map((op) => op.probe));
    expect(Object.keys(PROBES).filter((name) => !known.has(name))).toEqual([]);
    // the document is the running API's: the matrix covers most of it
    expect(covered.length).toBeGreaterThan(100);
  });

  it("compares answers strictly but for the ids themselves (and a new record's own ids and times)", () => {
    const pairs = new Map([
      ['12', '1000012'],
      ['6f1c2b1e-0a4d-4c3b-9e2f-1a2b3c4d5e6f', '0b9d8c7a-1e2f-4a3b-8c4d-5e6f7a8b9c0d'],
    ]);
    const outcome = (status: number, body: unknown) => ({ status, text: JSON.stringify(body), ms: 0 });
    // the same answer naming each world's id
    expect(
      sameAnswer(
        outcome(404, { code: 1, info: 'labour 6F1C2B1E-0a4d-4c3b-9e2f-1a2b3c4d5e6f of field 12 not found' }),
        outcome(404, { code: 1, info: 'labour 0b9d8c7a-1e2f-4a3b-8c4d-5e6f7a8b9c0d of field 1000012 not found' }),
        pairs,
      ),
    ).toBe(true);
    expect(sameAnswer(outcome(200, { objects: { 12: {} } }), outcome(200, { objects: { 1000012: {} } }), pairs)).toBe(
      true,
    );
    // what tells existence apart: another status, another code, another text, another shape
    for (const [x, y] of [
      [outcome(403, { info: { code: 3 } }), outcome(400, { info: { code: 3 } })],
      [outcome(403, { info: { code: 3 } }), outcome(403, { info: { code: 5 } })],
      [outcome(404, { info: 'no permission on 12' }), outcome(404, { info: 'no such field 1000012' })],
      [outcome(200, { data: [] }), outcome(200, { data: [{ uuid: 'x' }] })],
      [outcome(409, { id: 12 }), outcome(409, { id: 13 })],
    ])
      expect(sameAnswer(x!, y!, pairs), `${x!.text} ${y!.text}`).toBe(false);
  });
});

describe('cross-tenant matrix (from docs/openapi.json)', () => {
  let a: Owner;
  const attackers = new Map<Attacker, { token: string; own: Own }>();
  let before: Record<string, unknown>;

  beforeAll(async () => {
    a = await setUpOwner();
    const b = await newUser();
    const r = await newUser();
    await ok(internal('/internal/shares', { user_id: r.id, farm_id: a.farmId, permission: 'read' }), 'share');
    const [ownB, ownR] = await Promise.all([setUpAttacker(b), setUpAttacker(r)]);
    attackers.set('B', { token: b.token, own: ownB });
    attackers.set('R', { token: r.token, own: ownR });
    // E mixes A's ids with its own user's: its "own" records are A's
    const e = await tokenFor(a.user.id, { extension_id: 'other-extension' });
    attackers.set('E', {
      token: e,
      own: { ...ownB, token: e, userId: a.user.id, fieldId: a.fieldId, farmId: a.farmId },
    });
    before = await snapshot(a);
  }, 240_000);

  it("answers B's attempts on A's ids exactly as the same attempts on ids that exist nowhere", async () => {
    const ghost = ghostOf(a);
    const pairs = idPairs(a, ghost);
    const { token, own } = attackers.get('B')!;
    const mismatches: string[] = [];
    const compared = new Set<string>();
    let attempts = 0;
    // one pair at a time, A's id then the ghost's: what one attempt leaves behind (B's own records
    // made with such a uuid) is there for the later attempts of both worlds alike
    // Personal input ids are numbered per owner (docs/security.md, "Numbered ids"): the number of
    // A's input names, from B, B's own input of that number if B holds one (the attempts above make
    // some), not A's. So an input id is no id of A's here: both worlds send one that no list holds,
    // and what is compared is A's input uuid against one nobody used.
    const unheldInput = { inputId: 999_999_999 };
    for (const operation of covered) {
      const foreigns = PROBES[operation.probe]!({ ...a, ...unheldInput }, own);
      const unknowns = PROBES[operation.probe]!({ ...ghost, ...unheldInput }, own);
      for (const [index, foreign] of foreigns.entries()) {
        const unknown = unknowns[index]!;
        // only attempts that name something of A's (others are the same request twice)
        const namesA = async (attempt: Attempt) =>
          JSON.stringify({
            ...attempt,
            body: attempt.body
              ? await Promise.all(
                  [...attempt.body().entries()].map(async ([name, value]) => [
                    name,
                    typeof value === 'string' ? value : await value.text(),
                  ]),
                )
              : undefined,
          });
        if (foreign.stream || (await namesA(foreign)) === (await namesA(unknown))) continue;
        attempts++;
        compared.add(operation.id);
        const [x, y] = [await attempt(operation, token, foreign), await attempt(operation, token, unknown)];
        if (!sameAnswer(x, y, pairs))
          mismatches.push(
            `${operation.id} #${index} (${operation.method} ${operation.path}): A's id ${x.status} ${x.text.slice(0, 1500)} | nowhere ${y.status} ${y.text.slice(0, 1500)}`,
          );
      }
    }
    const uncompared = covered.filter((op) => !compared.has(op.id)).map((op) => op.id);
    console.log(
      `cross-tenant, existence as absence: ${attempts} attempts on ${compared.size} of ${covered.length} operations compared (the others name nothing of A's: ${uncompared.join(', ')})`,
    );
    expect(mismatches).toEqual([]);
    // every covered operation is compared but those whose attempts name nothing of A's (a list of
    // the caller's own, a user made by the internal API) and the notification stream (read for a
    // moment, not compared): an operation that drops out of the comparison fails here
    expect(uncompared.sort()).toEqual(
      ['internalCreateUser', 'listChanges', 'listWorkOrders', 'notificationStream', 'notificationStream2'].sort(),
    );
  }, 240_000);

  it('refuses every attempt on A’s records, answers nothing of A’s, and leaves A’s data as it was', async () => {
    const tasks: Array<{ who: Attacker; operation: Operation; attempt: Attempt; index: number }> = [];
    for (const operation of covered) {
      for (const who of ['B', 'R', 'E'] as const) {
        PROBES[operation.probe]!(a, attackers.get(who)!.own).forEach((item, index) => {
          if (mustRefuse(who, item)) tasks.push({ who, operation, attempt: item, index });
        });
      }
    }
    const failures: string[] = [];
    let slowest = { ms: 0, where: '' };
    const queue = [...tasks];
    const worker = async () => {
      for (let task = queue.shift(); task; task = queue.shift()) {
        const { who, operation, attempt: item, index } = task;
        const outcome = await attempt(operation, attackers.get(who)!.token, item);
        const where = `${who} ${operation.id} #${index} (${operation.method} ${operation.path})`;
        if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, where };
        if (outcome.status >= 500 || outcome.status === 0)
          failures.push(`${where}: ${outcome.status} ${outcome.text.slice(0, 200)}`);
        else if (outcome.text.includes(item.secret ?? SECRET))
          failures.push(`${where}: answered A's data (${outcome.status}) ${outcome.text.slice(0, 300)}`);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: 6 }, worker));
    console.log(
      `cross-tenant: ${tasks.length} attempts on ${covered.length} of ${operations.length} operations in ${((performance.now() - started) / 1000).toFixed(1)} s, slowest ${slowest.ms} ms (${slowest.where})`,
    );
    expect(failures).toEqual([]);
    expect(tasks.length).toBeGreaterThan(350);
    expect(slowest.ms).toBeLessThan(10_000);

    // A's world, read back, is what it was
    const after = await snapshot(a);
    for (const key of Object.keys(before)) expect({ [key]: after[key] }).toEqual({ [key]: before[key] });
    // and the snapshot holds A's records (it would also pass on an empty world otherwise)
    expect(JSON.stringify(before)).toContain(SECRET);
    for (const key of [
      'fields',
      'metadata',
      'farmTags',
      'herds',
      'spots',
      'sampleSpots',
      'spotTags',
      'messages',
      'groups',
      'kvFields',
      'kvUser',
      'files',
      'inputs',
      'labours',
      'workOrders',
      'scaleTemplates',
      'webhooks',
    ]) {
      expect(JSON.stringify(before[key]), key).toContain(SECRET);
    }
    expect(JSON.stringify(before.inbox)).toContain(INBOX_SECRET);
    expect(JSON.stringify(before.values)).toContain('4242.125');

    // the change feed's probes above mean something: A's own feed holds A's records and its
    // extension's storage, E's (A's user through another extension) A's records but not that storage
    const feed = async (token: string) => {
      const pages: unknown[] = [];
      let since: string | undefined;
      for (;;) {
        const page = await call('GET', '/api/changes', { token, query: { limit: 500, ...(since ? { since } : {}) } });
        expect(page.status, page.text).toBe(200);
        pages.push(page.body.data.changes);
        since = page.body.data.cursor;
        if (!page.body.data.has_more) return JSON.stringify(pages);
      }
    };
    const ownFeed = await feed(a.user.token);
    expect(ownFeed).toContain(SECRET);
    expect(ownFeed).toContain(EXTENSION_SECRET);
    const otherExtension = await feed(attackers.get('E')!.token);
    expect(otherExtension).toContain(SECRET);
    expect(otherExtension).not.toContain(EXTENSION_SECRET);
  }, 240_000);
});

// --- add shares (docs/security.md, "Add shares") ---------------------------
// D holds an `add` share of A's farm. An add share views the farm and adds fields to it, and (the
// spec's storage table) creates and changes extension storage of its fields and farm; nothing
// else of A's is written through it. Every write attempt of the matrix at A's field or farm that
// names only A's records (attempts that mix in D's own ids make D's own records, the main matrix
// runs them) is run by D: each must be refused (4xx, or a batch's per-item refusal) unless it is
// one of the table's (run apart, below) or one any reader may make because it writes only D's own
// records (READER_OWN_WRITES); A's data, maps included, must read back unchanged.

/** Writes any reader of A's farm may make, since they write only the reader's own records. */
const READER_OWN_WRITES: Record<string, string> = {
  linkFieldTag: "D's own label on a field it reads (labels are their user's)",
  linkFarmTag: "D's own label on a farm it reads",
  createFarmTag: "D's own tag, labelling a farm it reads",
  unlinkFieldTag: "removes D's label (D has none: nothing of A's)",
  unlinkFarmTag: "removes D's label (D has none: nothing of A's)",
  createWorkOrder: "D's own work order of labours it reads (docs/decisions.md, Work orders)",
};

/** Stand-ins for an attacker's own ids: an attempt whose text holds one mixes in the attacker's records. */
const OWN_SENTINEL: Own = {
  token: '',
  userId: 987_654_301,
  fieldId: 987_654_302,
  farmId: 987_654_303,
  farmTagId: 987_654_304,
  paddockUuid: 'f0e1d2c3-0000-4000-8000-00000000a001',
  herdUuid: 'f0e1d2c3-0000-4000-8000-00000000a002',
  spotUuid: 'f0e1d2c3-0000-4000-8000-00000000a003',
};
const mixesOwnIds = (item: Attempt) => {
  const text = JSON.stringify({ ...item, body: undefined });
  return Object.values(OWN_SENTINEL).some((value) => value !== '' && text.includes(String(value)));
};

/** A refusal: a 4xx, or a batch that created nothing and says why for each item (rotations). */
const refused = (outcome: Outcome) => {
  if (outcome.status >= 400) return true;
  try {
    const body = JSON.parse(outcome.text);
    return body?.data?.created_ones?.length === 0 && body.data.unabled_to_be_created?.length > 0;
  } catch {
    return false;
  }
};

/** What the table lets an add share write: adding a field to the farm, storage PUT and PATCH on it. */
const addShareMayWrite = (operation: Operation, item: Attempt): boolean =>
  operation.probe === 'createField' ||
  (item.level === 'shared-extension' && ['PUT', 'PATCH'].includes(String(item.query?.operation).toUpperCase()));

describe('cross-tenant matrix: an add share', () => {
  let a: Owner;
  let d: { token: string; own: Own; userId: number };
  let before: Record<string, unknown>;
  const maps = (owner: Owner) =>
    call('GET', '/api/users/me/maps', { token: owner.user.token, query: { id_lote: owner.fieldId } });

  beforeAll(async () => {
    a = await setUpOwner();
    const user = await newUser();
    await ok(internal('/internal/shares', { user_id: user.id, farm_id: a.farmId, permission: 'add' }), 'add share');
    d = { token: user.token, own: await setUpAttacker(user), userId: user.id };
    before = { ...(await snapshot(a)), maps: (await maps(a)).body };
  }, 240_000);

  it("refuses every write at A's farm beyond the table's, and leaves A's data (maps included) as it was", async () => {
    const tasks: Array<{ operation: Operation; item: Attempt; index: number }> = [];
    for (const operation of covered) {
      const mixed = PROBES[operation.probe]!(a, OWN_SENTINEL).map(mixesOwnIds);
      PROBES[operation.probe]!(a, d.own).forEach((item, index) => {
        if (
          item.kind === 'write' &&
          ['field', 'shared-extension'].includes(item.level) &&
          !mixed[index] &&
          !addShareMayWrite(operation, item)
        )
          tasks.push({ operation, item, index });
      });
    }
    const failures: string[] = [];
    const queue = [...tasks];
    const worker = async () => {
      for (let task = queue.shift(); task; task = queue.shift()) {
        const { operation, item, index } = task;
        const outcome = await attempt(operation, d.token, item);
        const where = `D ${operation.id} #${index} (${operation.method} ${operation.path})`;
        if (outcome.status >= 500 || outcome.status === 0)
          failures.push(`${where}: ${outcome.status} ${outcome.text.slice(0, 200)}`);
        else if (!refused(outcome) && !READER_OWN_WRITES[operation.probe])
          failures.push(`${where}: not refused (${outcome.status}) ${outcome.text.slice(0, 200)}`);
        else if (outcome.text.includes(item.secret ?? SECRET))
          failures.push(`${where}: answered A's data (${outcome.status}) ${outcome.text.slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    console.log(`cross-tenant (add share): ${tasks.length} write attempts refused or D's own`);
    expect(failures).toEqual([]);
    expect(tasks.length).toBeGreaterThan(60);
    const after: Record<string, unknown> = { ...(await snapshot(a)), maps: (await maps(a)).body };
    for (const key of Object.keys(before)) expect({ [key]: after[key] }).toEqual({ [key]: before[key] });
    expect(JSON.stringify(before.maps)).toContain(SECRET);
  }, 240_000);

  it('lets it do what the table says: add a field to the farm (the owner’s), create and change storage, not delete it', async () => {
    const added = await call('POST', '/api/agregarlote', {
      token: d.token,
      form: { nombre: 'added by D', shape: FIELD, idcampo: a.farmId },
    });
    expect(added.status).toBe(200);
    const listing = await ok(call('GET', '/api/getfields', { token: a.user.token }), 'getfields');
    expect(listing.user.farms[a.farmId].fields[added.body.id_lote]).toMatchObject({ role: 1 });
    const store = (operation: string, json: unknown) =>
      call('POST', '/api/mktplace/storage/fields', { token: d.token, query: { operation }, json });
    expect((await store('PUT', { id: a.fieldId, key: 'from_d', data: { n: 1 } })).status).toBe(200);
    expect((await store('PATCH', { id: a.fieldId, key: 'from_d', data: { n: 2 } })).status).toBe(200);
    const removed = await store('DELETE', { id: a.fieldId, keys: ['from_d'] });
    expect([removed.status, removed.body.info?.code]).toEqual([403, 3]);
    // its permissions as getfields reports them: view and add fields
    const seen = await ok(call('GET', '/api/getfields', { token: d.token }), 'getfields of D');
    expect(seen.user.farms[a.farmId]).toMatchObject({ permissions: [100, 120], role: 4 });
  });
});
