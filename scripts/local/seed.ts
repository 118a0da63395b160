// Seeds a demo workspace through the internal API, once: a workspace administrator with a farm of
// two fields, a member of her workspace with one field shared, a supervisor, and on the first field a
// zoning map with a soil sampling of it (groups, points, two analysed samples), and a season of
// soybean there: its rotation, a sowing, a planned application and a work order. A marker item
// keeps the ids, so a restart reuses them (data is kept across restarts) and only mints a token.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS, REGION, type RunningStack } from './stack';

export interface DemoWorkspace {
  admin: { id: number; user_name: string };
  member: { id: number; user_name: string };
  supervisor: { id: number; user_name: string };
  farmId: number;
  fieldIds: number[];
}

const MARKER = { pk: 'SYSTEM', sk: 'SEED#demo' };

export async function internalCall<T>(
  stack: { baseUrl: string; internalKey: string },
  path: string,
  body: unknown,
): Promise<T> {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-key': stack.internalKey },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as { code: number; data: T; info?: string };
  if (!response.ok || payload.code !== 0) throw new Error(`${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data;
}

export async function mintToken(
  stack: { baseUrl: string; internalKey: string },
  userId: number,
  extra: Record<string, unknown> = {},
) {
  return internalCall<{ access_token: string; expires_at: string }>(stack, '/internal/tokens', {
    user_id: userId,
    extension_id: 'demo-extension',
    extension_version: '1.0.0',
    claims: ['*'],
    ...extra,
  });
}

const SQUARE = (lon: number, lat: number, size: number) =>
  `POLYGON((${lon} ${lat},${lon + size} ${lat},${lon + size} ${lat + size},${lon} ${lat + size},${lon} ${lat}))`;

export async function seedDemo(stack: RunningStack): Promise<DemoWorkspace> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: REGION, endpoint: stack.endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }),
  );
  try {
    const existing = await db.send(new GetCommand({ TableName: stack.table, Key: MARKER, ConsistentRead: true }));
    if (existing.Item) return existing.Item.workspace as DemoWorkspace;

    const admin = await internalCall<{ id: number; user_name: string; space_id: number }>(stack, '/internal/users', {
      user_name: 'Ana Pereyra',
      locale: 'es',
      hectare_quota: 5000,
    });
    const member = await internalCall<{ id: number; user_name: string }>(stack, '/internal/users', {
      user_name: 'Bruno Díaz',
      locale: 'en',
      space_id: admin.space_id,
    });
    const supervisor = await internalCall<{ id: number; user_name: string }>(stack, '/internal/users', {
      user_name: 'Carla Gómez',
      locale: 'pt',
    });
    const { access_token } = await mintToken(stack, admin.id);
    const fieldIds: number[] = [];
    let farmId = 0;
    for (const [name, lon] of [
      ['Lote Norte', -60.57],
      ['Lote Sur', -60.55],
    ] as const) {
      const response = await fetch(`${stack.baseUrl}/api/agregarlote`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          nombre: name,
          shape: SQUARE(lon, -33.89, 0.01),
          nombrecampo: 'Estancia La Esperanza',
        }),
      });
      const created = (await response.json()) as { id_lote: string; id_campo: number };
      if (!response.ok) throw new Error(`seeding field ${name}: ${JSON.stringify(created)}`);
      fieldIds.push(Number(created.id_lote));
      farmId = created.id_campo;
    }
    await internalCall(stack, '/internal/shares', { user_id: member.id, field_id: fieldIds[1], permission: 'read' });
    await internalCall(stack, '/internal/supervisions', {
      supervisor_id: supervisor.id,
      user_id: admin.id,
      permission: 'read',
    });
    await seedSampling(stack, access_token, fieldIds[0]!);
    await seedSeason(stack, access_token, fieldIds[0]!);
    const workspace: DemoWorkspace = {
      admin: { id: admin.id, user_name: admin.user_name },
      member: { id: member.id, user_name: member.user_name },
      supervisor: { id: supervisor.id, user_name: supervisor.user_name },
      farmId,
      fieldIds,
    };
    await db.send(new PutCommand({ TableName: stack.table, Item: { ...MARKER, kind: 'seed', workspace } }));
    return workspace;
  } finally {
    db.destroy();
  }
}

async function api(stack: { baseUrl: string }, token: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as Record<string, any>;
  if (!response.ok) throw new Error(`seeding ${method} ${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload;
}

/** A zoning map of the field (two environments) and a soil sampling of it with two analysed samples. */
async function seedSampling(stack: RunningStack, token: string, fieldId: number): Promise<void> {
  const zone = (lon: number, id: number, nombre: string) => ({
    type: 'Feature',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [lon, -33.89],
          [lon + 0.005, -33.89],
          [lon + 0.005, -33.88],
          [lon, -33.88],
          [lon, -33.89],
        ],
      ],
    },
    properties: { id, nombre },
  });
  const map = await api(stack, token, 'POST', '/api/users/me/maps', {
    nombre: 'Ambientes Lote Norte',
    id_lote: fieldId,
    id_tipo: 1,
    geojson: {
      type: 'FeatureCollection',
      features: [zone(-60.57, 0, 'Ambiente bajo'), zone(-60.565, 1, 'Ambiente alto')],
    },
    metadata: {
      capas: {
        0: { color: [215, 25, 28, 255], nombre: 'Ambiente bajo' },
        1: { color: [26, 150, 65, 255], nombre: 'Ambiente alto' },
      },
    },
  });
  const [low, high] = ['3f7d2c1e-8a4b-4c6d-9e0f-1a2b3c4d5e01', '3f7d2c1e-8a4b-4c6d-9e0f-1a2b3c4d5e02'];
  const sampling = await internalCall<{ sample_set_uuid: string }>(stack, '/internal/samplings', {
    sampling_name: 'Muestreo de suelo 2026',
    field_id: fieldId,
    yeargroup: 2026,
    zoning: { info: { map_id: String(map.id) }, type: 'map' },
    analysis: {
      'Suelo 0-20': [
        { name: 'P', unit_id: 2 },
        { name: 'MO', unit_id: 1 },
        { name: 'pH', unit_id: 8 },
      ],
    },
    groups: [
      { group_uuid: low, color: '#D7191C', name: 'Ambiente bajo' },
      { group_uuid: high, color: '#1A9641', name: 'Ambiente alto' },
    ],
    points: [
      { geometry: 'POINT(-60.5675 -33.885)', group_uuid: low, checked: 1 },
      { geometry: 'POINT(-60.5625 -33.885)', group_uuid: high, checked: 1 },
    ],
  });
  for (const [group, point, values] of [
    [low, 'POINT(-60.5675 -33.885)', [9.8, 2.6, 6.1]],
    [high, 'POINT(-60.5625 -33.885)', [18.4, 3.4, 6.4]],
  ] as const) {
    await api(stack, token, 'POST', '/spots/spot', {
      field_id: fieldId,
      shape: point,
      name: 'Suelo 0-20',
      group_uuid: group,
      sample_set: { sample_set_uuid: sampling.sample_set_uuid, sample_set_type: 'soil_sampling' },
      data: {
        variables: [
          { name: 'P', unit_id: 2, value: values[0] },
          { name: 'MO', unit_id: 1, value: values[1] },
          { name: 'pH', unit_id: 8, value: values[2] },
        ],
      },
    });
  }
}

/** The 2026 soybean campaign of the field: its rotation, a sowing, a planned application and their work order. */
async function seedSeason(stack: RunningStack, token: string, fieldId: number): Promise<void> {
  const rotation = await api(stack, token, 'POST', '/api/rotations', [
    {
      field_id: fieldId,
      crop_id: 1,
      yeargroup: 2026,
      start_date: '2026-11-01T00:00:00Z',
      end_date: '2027-04-15T00:00:00Z',
    },
  ]);
  const rotationUuid = rotation.data.created_ones[0].rotation_uuid as string;
  const common = { yeargroup: 2026, field_id: fieldId, rotation_uuid: rotationUuid, surface: 95 };
  const sowing = await api(stack, token, 'POST', '/activities/labour', {
    ...common,
    labour_type_id: 3,
    status: 2,
    date: '2026-11-10',
    seeding_type_id: 1,
    variety_name: 'DM 46i20',
    seed_rate: { unit: 'semillas/m', value: 18 },
    row_width: { unit: 'cm', value: 52.5 },
    inputs: [{ id: 80, dose: 75, unit: 'kg/ha' }],
    costs: { labour: { unit: 'USD/ha', value: 45 }, seed: { unit: 'USD/kg', value: 0.85 } },
  });
  const application = await api(stack, token, 'POST', '/activities/labour', {
    ...common,
    labour_type_id: 1,
    status: 1,
    date: '2026-12-05',
    application_type_id: 1,
    inputs: [
      { id: 20, dose: 2, unit: 'L/ha' },
      { id: 60, dose: 0.05, unit: 'L/ha' },
      { id: 120, dose: 0.5, unit: 'L/ha' },
    ],
    observations: 'Control de malezas y orugas en V4',
  });
  await api(stack, token, 'POST', '/api/work_orders', {
    uuid: '5b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a41',
    name: 'Aplicación V4 Lote Norte',
    labours: [application.data.uuid, sowing.data.uuid],
    date: '2026-12-04',
    yeargroup: 2026,
    recomendations: [
      { type_id: '1', value: 'Menos de 28 °C' },
      { type_id: '4', value: 'Entre 5 y 15 km/h' },
    ],
    notes: 'Aplicar a primera hora; no aplicar con rocío.',
  });
}
