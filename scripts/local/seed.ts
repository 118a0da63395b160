// Seeds a demo workspace through the internal API, once: a workspace administrator with a farm of
// two fields, a member of her workspace with one field shared, and a supervisor. A marker item
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

export async function internalCall<T>(stack: { baseUrl: string; internalKey: string }, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-key': stack.internalKey },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as { code: number; data: T; info?: string };
  if (!response.ok || payload.code !== 0) throw new Error(`${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data;
}

export async function mintToken(stack: { baseUrl: string; internalKey: string }, userId: number, extra: Record<string, unknown> = {}) {
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
    for (const [name, lon] of [['Lote Norte', -60.57], ['Lote Sur', -60.55]] as const) {
      const response = await fetch(`${stack.baseUrl}/api/agregarlote`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ nombre: name, shape: SQUARE(lon, -33.89, 0.01), nombrecampo: 'Estancia La Esperanza' }),
      });
      const created = (await response.json()) as { id_lote: string; id_campo: number };
      if (!response.ok) throw new Error(`seeding field ${name}: ${JSON.stringify(created)}`);
      fieldIds.push(Number(created.id_lote));
      farmId = created.id_campo;
    }
    await internalCall(stack, '/internal/shares', { user_id: member.id, field_id: fieldIds[1], permission: 'read' });
    await internalCall(stack, '/internal/supervisions', { supervisor_id: supervisor.id, user_id: admin.id, permission: 'read' });
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
