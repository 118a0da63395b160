// Spec 3, "File storage": POST /api/mktplace/filestorage/{users|fields|farms}?operation=..., S3
// presigned uploads (a real multipart POST to the local S3), download URLs, codes 1-7, access
// rules, extension isolation and the replaced files being deleted at once.
import { createHash, randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../lib/db/keys';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import {
  call,
  createField,
  eventually,
  internal,
  newUser,
  stack,
  type TestUser,
  tokenFor,
  unique,
} from './helpers/api';

type Scope = 'users' | 'fields' | 'farms';

const files = (token: string, scope: Scope, operation: string, json: unknown) =>
  call('POST', `/api/mktplace/filestorage/${scope}`, { token, query: { operation }, json });

const md5 = (content: Buffer) => createHash('md5').update(content).digest('base64');
const kb = (content: Buffer) => content.length / 1024;

function declare(content: Buffer, key: string, extra: Record<string, unknown> = {}) {
  return { key, original_file_name: `${key}.bin`, md5: md5(content), file_size_kb: kb(content), ...extra };
}

/** POST the file to the presigned URL as a browser would: every field, Content-MD5, the file last. */
async function upload(
  presigned: { url: string; fields: Record<string, string> },
  content: Buffer,
  contentMd5 = md5(content),
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) form.set(name, value);
  form.set('Content-MD5', contentMd5);
  form.set('file', new Blob([content]), 'upload.bin');
  return fetch(presigned.url, { method: 'POST', body: form });
}

async function listed(user: { token: string }, scope: Scope, body: Record<string, unknown>) {
  const response = await files(user.token, scope, 'GET', body);
  expect(response.status).toBe(200);
  return response.body.objects;
}

async function owner() {
  const user = await newUser();
  const { fieldId, farmId } = await createField(user);
  return { user, fieldId, farmId };
}

describe('file storage: upload and download', () => {
  it('PUT creates the key at once; the file uploaded to the presigned URL downloads with the same MD5', async () => {
    const { user, fieldId } = await owner();
    const content = randomBytes(150 * 1024 + 17);
    const put = await files(user.token, 'fields', 'PUT', declare(content, 'photo', { field: fieldId }));
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      data: {
        url: expect.stringMatching(/^http/),
        fields: expect.objectContaining({ key: expect.any(String), Policy: expect.any(String) }),
      },
    });

    // listed before the upload, without a file to download
    const before = await listed(user, 'fields', { ids: [fieldId], keys: ['photo'], get_url: true });
    expect(before[fieldId].photo).toMatchObject({
      file_name: 'photo.bin',
      uploaded: false,
      url: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });

    const posted = await upload(put.body.data, content);
    expect(posted.status).toBeLessThan(300);

    const after = await listed(user, 'fields', { ids: [fieldId], keys: ['photo'], get_url: true });
    const file = after[fieldId].photo;
    expect(file).toMatchObject({ file_name: 'photo.bin', uploaded: true, url: expect.stringMatching(/^http/) });
    expect(file.file_size_kb).toBeCloseTo(kb(content), 2);
    const download = await fetch(file.url);
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(md5(bytes)).toBe(md5(content));
    expect(download.headers.get('content-disposition') ?? '').toContain('photo.bin');
    // without get_url there is no url member
    const plain = await listed(user, 'fields', { ids: [fieldId], keys: ['photo'] });
    expect(plain[fieldId].photo).not.toHaveProperty('url');
  });

  it('signs a policy that carries the size range, the MD5 and a 10-second expiry', async () => {
    const { user, farmId } = await owner();
    const content = randomBytes(3000);
    const started = Date.now();
    const put = await files(
      user.token,
      'farms',
      'PUT',
      declare(content, 'policy', { farm: farmId, file_size_kb: 2.93 }),
    );
    const fields = put.body.data.fields;
    const policy = JSON.parse(Buffer.from(fields.Policy, 'base64').toString());
    const range = policy.conditions.find((c: unknown) => Array.isArray(c) && c[0] === 'content-length-range');
    // 2.93 KB declared (3000 bytes is 2.9297 KB), half a KB of rounding either way
    expect(range).toEqual(['content-length-range', Math.floor((2.93 - 0.5) * 1024), Math.ceil((2.93 + 0.5) * 1024)]);
    expect(range[1]).toBeLessThanOrEqual(3000);
    expect(range[2]).toBeGreaterThanOrEqual(3000);
    expect(policy.conditions).toContainEqual(['eq', '$Content-MD5', md5(content)]);
    expect(policy.conditions).toContainEqual({ key: fields.key });
    const lifetime = Date.parse(policy.expiration) - started;
    expect(lifetime).toBeGreaterThan(8_000);
    expect(lifetime).toBeLessThanOrEqual(11_000);
    expect(fields.key).toMatch(new RegExp(`^storage/farms/${farmId}/test-extension/policy/[0-9a-f-]{36}$`));
  });

  it('S3 refuses an upload that does not match its policy, and nothing is stored', async () => {
    const { user, fieldId } = await owner();
    const victim = await owner();
    const content = randomBytes(4096);
    const put = await files(user.token, 'fields', 'PUT', declare(content, 'guarded', { field: fieldId }));
    const presigned = put.body.data as { url: string; fields: Record<string, string> };
    const s3 = new S3Client({
      region: stack().region,
      endpoint: new URL(presigned.url).origin,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    const exists = (key: string) =>
      s3.send(new HeadObjectCommand({ Bucket: stack().bucket, Key: key })).then(
        () => true,
        () => false,
      );
    const errorCode = async (response: Response) => [
      response.status,
      /<Code>(\w+)<\/Code>/.exec(await response.text())?.[1],
    ];

    // another tenant's key, with this form's signature
    const forgedKey = presigned.fields.key!.replace(`/fields/${fieldId}/`, `/fields/${victim.fieldId}/`);
    expect(
      await errorCode(await upload({ ...presigned, fields: { ...presigned.fields, key: forgedKey } }, content)),
    ).toEqual([403, 'AccessDenied']);
    expect(await exists(forgedKey)).toBe(false);
    // a larger file than declared (its own MD5 sent), a file other than the declared one
    const larger = randomBytes(64 * 1024);
    expect(await errorCode(await upload(presigned, larger, md5(larger)))).toEqual([400, 'EntityTooLarge']);
    expect(await errorCode(await upload(presigned, content.subarray(0, 1024), md5(content)))).toEqual([
      400,
      'EntityTooSmall',
    ]);
    const swapped = randomBytes(4096);
    expect(await errorCode(await upload(presigned, swapped, md5(content)))).toEqual([400, 'BadDigest']);
    // an extra field the policy does not name
    expect(
      await errorCode(
        await upload({ ...presigned, fields: { ...presigned.fields, 'x-amz-meta-owner': 'me' } }, content),
      ),
    ).toEqual([403, 'AccessDenied']);
    expect(await exists(presigned.fields.key!)).toBe(false);
    expect((await listed(user, 'fields', { ids: [fieldId], keys: ['guarded'] }))[fieldId].guarded).toMatchObject({
      uploaded: false,
    });

    // the form as signed still works
    expect((await upload(presigned, content)).status).toBeLessThan(300);
    expect(await exists(presigned.fields.key!)).toBe(true);
  });

  it('signs download URLs valid for 10 seconds', async () => {
    const { user } = await owner();
    const content = randomBytes(100);
    const put = await files(user.token, 'users', 'PUT', declare(content, 'short', { user: user.uid }));
    await upload(put.body.data, content);
    const url = new URL((await listed(user, 'users', { keys: ['short'], get_url: true })).short.url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('10');
  });
});

describe('file storage: codes', () => {
  it('PUT answers 2 invalid key, 7 over 10 MB, 3 no permission, 5 existing key, 1 missing members, -4 malformed', async () => {
    const { user, fieldId } = await owner();
    const stranger = await owner();
    const content = randomBytes(10);
    const code = async (json: Record<string, unknown>) => {
      const response = await files(user.token, 'fields', 'PUT', json);
      return [response.status, response.body.code, response.body.info?.code];
    };
    expect(await code(declare(content, 'bad key', { field: fieldId }))).toEqual([400, 2, 2]);
    expect(await code(declare(content, 'huge', { field: fieldId, file_size_kb: 10 * 1024 + 0.01 }))).toEqual([
      400, 7, 7,
    ]);
    expect(await code(declare(content, 'max', { field: fieldId, file_size_kb: 10 * 1024 }))).toEqual([
      200,
      undefined,
      undefined,
    ]);
    expect(await code(declare(content, 'theirs', { field: stranger.fieldId }))).toEqual([403, 3, 3]);
    expect(await code(declare(content, 'nowhere', { field: 999_999_999 }))).toEqual([403, 3, 3]);
    expect(await code(declare(content, 'max', { field: fieldId }))).toEqual([409, 5, 5]);
    expect(await code(declare(content, 'nofield'))).toEqual([400, 1, 1]);
    expect(await code({ ...declare(content, 'noname', { field: fieldId }), original_file_name: undefined })).toEqual([
      400, 1, 1,
    ]);
    expect(await code({ ...declare(content, 'nomd5', { field: fieldId }), md5: undefined })).toEqual([400, 1, 1]);
    expect(
      await code(declare(content, 'hexmd5', { field: fieldId, md5: createHash('md5').update(content).digest('hex') })),
    ).toEqual([400, -4, -4]);
    expect(await code(declare(content, 'size', { field: fieldId, file_size_kb: 'big' }))).toEqual([400, -4, -4]);
    // the refused keys were not created
    expect(Object.keys((await listed(user, 'fields', { ids: [fieldId], keys: [] }))[fieldId])).toEqual(['max']);
  });

  it('answers 4 without the Storage claim or without an extension', async () => {
    const { user, fieldId } = await owner();
    const noClaim = await tokenFor(user.id, { claims: ['CAMPAIGN'] });
    const session = (await internal('/internal/tokens', { user_id: user.id, claims: ['*'] })).body.data.access_token;
    for (const token of [noClaim, session]) {
      const response = await files(token, 'fields', 'PUT', declare(randomBytes(5), 'k', { field: fieldId }));
      expect([response.status, response.body.code]).toEqual([403, 4]);
    }
  });

  it('lets only one of two racing PUTs create a key', async () => {
    const { user, fieldId } = await owner();
    const content = randomBytes(10);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => files(user.token, 'fields', 'PUT', declare(content, 'race', { field: fieldId }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });
});

describe('file storage: replacing and deleting', () => {
  async function storedFile(user: TestUser, fieldId: number, key: string) {
    const content = randomBytes(2048);
    const put = await files(user.token, 'fields', 'PUT', declare(content, key, { field: fieldId }));
    expect((await upload(put.body.data, content)).status).toBeLessThan(300);
    const url = (await listed(user, 'fields', { ids: [fieldId], keys: [key], get_url: true }))[fieldId][key]
      .url as string;
    expect((await fetch(url)).status).toBe(200);
    return { content, url };
  }

  it('PUT with overwrite replaces the file and deletes the old one at once', async () => {
    const { user, fieldId } = await owner();
    const old = await storedFile(user, fieldId, 'doc');
    const content = randomBytes(4096);
    const put = await files(
      user.token,
      'fields',
      'PUT',
      declare(content, 'doc', { field: fieldId, overwrite: true, original_file_name: 'new.pdf' }),
    );
    expect(put.status).toBe(200);
    expect((await fetch(old.url)).status).toBe(404);
    const listing = await listed(user, 'fields', { ids: [fieldId], keys: ['doc'], get_url: true });
    expect(listing[fieldId].doc).toMatchObject({ file_name: 'new.pdf', uploaded: false, url: null });
    await upload(put.body.data, content);
    const fresh = (await listed(user, 'fields', { ids: [fieldId], keys: ['doc'], get_url: true }))[fieldId].doc;
    expect(md5(Buffer.from(await (await fetch(fresh.url)).arrayBuffer()))).toBe(md5(content));
  });

  it('PATCH replaces the file of an existing key (deleting the old one); an absent key needs create', async () => {
    const { user, fieldId } = await owner();
    const absent = await files(user.token, 'fields', 'PATCH', declare(randomBytes(10), 'later', { field: fieldId }));
    expect([absent.status, absent.body.code]).toEqual([409, 5]);
    const created = await files(
      user.token,
      'fields',
      'PATCH',
      declare(randomBytes(10), 'later', { field: fieldId, create: true }),
    );
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ url: expect.any(String), fields: expect.any(Object) });

    const old = await storedFile(user, fieldId, 'report');
    const content = randomBytes(999);
    const patched = await files(user.token, 'fields', 'PATCH', declare(content, 'report', { field: fieldId }));
    expect(patched.status).toBe(200);
    expect((await fetch(old.url)).status).toBe(404);
    await upload(patched.body.data, content);
    const file = (await listed(user, 'fields', { ids: [fieldId], keys: ['report'], get_url: true }))[fieldId].report;
    expect(md5(Buffer.from(await (await fetch(file.url)).arrayBuffer()))).toBe(md5(content));
  });

  it('DELETE removes keys and their files and answers the keys it removed', async () => {
    const { user, fieldId } = await owner();
    const first = await storedFile(user, fieldId, 'one');
    await storedFile(user, fieldId, 'two');
    const missing = await files(user.token, 'fields', 'DELETE', { field: fieldId });
    expect([missing.status, missing.body.code]).toEqual([400, 1]);
    const deleted = await files(user.token, 'fields', 'DELETE', { field: fieldId, keys: ['one', 'never'] });
    expect(deleted.body).toEqual({ data: { deleted: ['one'] } });
    expect((await fetch(first.url)).status).toBe(404);
    expect(Object.keys((await listed(user, 'fields', { ids: [fieldId], keys: [] }))[fieldId])).toEqual(['two']);
    expect((await files(user.token, 'fields', 'DELETE', { field: fieldId, keys: ['one'] })).body).toEqual({
      data: { deleted: [] },
    });
  });

  it('deletes a file that reached a replaced upload URL late, once that URL has expired (worker)', async () => {
    const { user, fieldId } = await owner();
    const content = randomBytes(300);
    const replaced = await files(user.token, 'fields', 'PUT', declare(content, 'late', { field: fieldId }));
    expect(
      (await files(user.token, 'fields', 'PUT', declare(content, 'late', { field: fieldId, overwrite: true }))).status,
    ).toBe(200);
    // the upload through the first URL arrives after the key was switched to a new upload
    expect((await upload(replaced.body.data, content)).status).toBeLessThan(300);
    const s3 = new S3Client({
      region: stack().region,
      endpoint: new URL(replaced.body.data.url).origin,
      forcePathStyle: true,
      credentials: LOCAL_CREDENTIALS,
    });
    const head = () =>
      s3.send(new HeadObjectCommand({ Bucket: stack().bucket, Key: replaced.body.data.fields.key })).then(
        () => true,
        () => false,
      );
    expect(await head()).toBe(true);
    const listing = await listed(user, 'fields', { ids: [fieldId], keys: ['late'], get_url: true });
    expect(listing[fieldId].late).toMatchObject({ uploaded: false, url: null });
    await eventually(async () => ((await head()) ? undefined : true));
  });

  it("deletes a field's files with the field", async () => {
    const { user, fieldId } = await owner();
    const stored = await storedFile(user, fieldId, 'kept');
    const removed = await call('GET', '/api/borrarlotes', { token: user.token, query: { lote: fieldId } });
    expect(removed.status).toBe(200);
    await eventually(async () => ((await fetch(stored.url)).status === 404 ? true : undefined));
  });
});

describe('file storage: listing, scopes and access', () => {
  it('users scope: without ids the answer has no resource level; with ids it is keyed by the ids sent', async () => {
    const user = await newUser();
    const content = randomBytes(64);
    const put = await files(user.token, 'users', 'PUT', declare(content, 'avatar', { user: user.uid }));
    expect(put.status).toBe(200);
    expect(await listed(user, 'users', { keys: ['avatar'] })).toEqual({
      avatar: { file_name: 'avatar.bin', file_size_kb: kb(content), created_at: expect.any(String), uploaded: false },
    });
    expect(Object.keys(await listed(user, 'users', { ids: [user.uid], keys: ['avatar'] }))).toEqual([user.uid]);
    expect(Object.keys(await listed(user, 'users', { ids: [user.id], keys: ['avatar'] }))).toEqual([String(user.id)]);
    const absent = await files(user.token, 'users', 'GET', {
      ids: ['00000000-0000-4000-8000-000000000000'],
      keys: ['avatar'],
    });
    // a user nobody is, answered as one the caller may not read (3); an id that is no id at all, 5
    expect([absent.status, absent.body.code]).toEqual([403, 3]);
    const malformed = await files(user.token, 'users', 'GET', { ids: ['not-an-id'], keys: ['avatar'] });
    expect([malformed.status, malformed.body.code]).toEqual([400, 5]);
    const noKeys = await files(user.token, 'users', 'GET', {});
    expect([noKeys.status, noKeys.body.code]).toEqual([400, 1]);
  });

  it('fields and farms scopes without ids list every accessible resource that holds the keys', async () => {
    const { user, fieldId, farmId } = await owner();
    const friend = await owner();
    await internal('/internal/shares', { user_id: user.id, farm_id: friend.farmId, permission: 'read' });
    await files(user.token, 'farms', 'PUT', declare(randomBytes(5), 'plan', { farm: farmId }));
    await files(friend.user.token, 'farms', 'PUT', declare(randomBytes(5), 'plan', { farm: friend.farmId }));
    await files(user.token, 'fields', 'PUT', declare(randomBytes(5), 'map', { field: fieldId }));
    const farms = await listed(user, 'farms', { keys: ['plan'] });
    expect(Object.keys(farms).sort()).toEqual([String(farmId), String(friend.farmId)].sort());
    expect(Object.keys(await listed(user, 'fields', { keys: ['map'] }))).toEqual([String(fieldId)]);
  });

  it('read shares list but cannot store; strangers neither; other extensions see nothing', async () => {
    const { user, farmId } = await owner();
    await files(user.token, 'farms', 'PUT', declare(randomBytes(5), 'secret', { farm: farmId }));
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, farm_id: farmId, permission: 'read' });
    expect(Object.keys((await listed(reader, 'farms', { ids: [farmId], keys: ['secret'] }))[farmId])).toEqual([
      'secret',
    ]);
    const store = await files(reader.token, 'farms', 'PUT', declare(randomBytes(5), 'mine', { farm: farmId }));
    expect([store.status, store.body.code]).toEqual([403, 3]);
    const remove = await files(reader.token, 'farms', 'DELETE', { farm: farmId, keys: ['secret'] });
    expect([remove.status, remove.body.code]).toEqual([403, 3]);
    const stranger = await newUser();
    const peek = await files(stranger.token, 'farms', 'GET', { ids: [farmId], keys: ['secret'] });
    expect([peek.status, peek.body.code]).toEqual([403, 3]);
    const otherExtension = { token: await tokenFor(user.id, { extension_id: unique('ext') }) };
    expect(await listed(otherExtension, 'farms', { ids: [farmId], keys: [] })).toEqual({ [farmId]: {} });
  });
});

describe('file storage: names that are not well-formed Unicode', () => {
  it('refuses a file name with a lone surrogate (400 -4, nothing stored)', async () => {
    const { user, fieldId } = await owner();
    const content = randomBytes(10);
    const put = await files(user.token, 'fields', 'PUT', {
      ...declare(content, 'lone', { field: fieldId }),
      original_file_name: 'x\ud800.pdf',
    });
    expect([put.status, put.body.code]).toEqual([400, -4]);
    expect(await listed(user, 'fields', { ids: [fieldId], keys: ['lone'] })).toEqual({ [fieldId]: {} });
  });

  it('lists with get_url a file whose stored name holds a lone surrogate (stored before the check): 200, never 500', async () => {
    const { user, fieldId } = await owner();
    const content = randomBytes(10);
    const put = await files(user.token, 'fields', 'PUT', declare(content, 'legacy', { field: fieldId }));
    expect((await upload(put.body.data, content)).status).toBeLessThan(300);
    await eventually(async () =>
      (await listed(user, 'fields', { ids: [fieldId], keys: ['legacy'] }))[fieldId].legacy.uploaded ? true : undefined,
    );
    // the name as an edit share could store it before texts were checked
    const { endpoints, table } = stack();
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: stack().region, endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }),
    );
    const extension = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()).ext as string;
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.storageFile(keys.storageResource('fields', fieldId), extension, 'legacy'),
        UpdateExpression: 'SET file_name = :name',
        ExpressionAttributeValues: { ':name': 'x\ud800.pdf' },
      }),
    );
    const response = await files(user.token, 'fields', 'GET', { ids: [fieldId], keys: ['legacy'], get_url: true });
    expect(response.status).toBe(200);
    const url = new URL(response.body.objects[fieldId].legacy.url);
    expect(url.searchParams.get('response-content-disposition')).toBe("attachment; filename*=UTF-8''x%EF%BF%BD.pdf");
  });
});
