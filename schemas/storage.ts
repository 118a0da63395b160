// Extension storage (spec 3): key-value objects and files under a user, a field or a farm, per
// extension. Every operation is a POST to the scope's path with `?operation=PUT|PATCH|GET|DELETE`;
// the body depends on the operation, so the service parses it with the schema of its operation
// (lib/storage/input.ts maps the issues to the storage codes).
import * as z from 'zod/mini';
import { Forbidden } from '../lib/errors';
import { fileStorageDialect, storageDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import { FILE_MAX_KB, IDS_MAX, KEY_MAX_LENGTH, KEYS_MAX, SCOPES } from '../lib/storage/access';
import { STORAGE_CODES } from '../lib/storage/codes';
import { booleanLike } from './common';

/** Both storages need the Storage permissions in the extension version's claimset (spec 3). */
const storageClaim = {
  claims: ['STORAGE'],
  missingClaim: () =>
    new Forbidden('the extension version lacks the Storage permissions', { code: STORAGE_CODES.INVALID_EXTENSION }),
} as const;

export const OPERATIONS = ['PUT', 'PATCH', 'GET', 'DELETE'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const StoragePath = z.object({ scope: z.enum(SCOPES).check(z.describe('users, fields or farms')) });
export const StorageQuery = z.object({
  operation: z
    .pipe(z.string().check(z.trim(), z.toUpperCase()), z.enum(OPERATIONS))
    .check(z.describe('PUT, PATCH, GET or DELETE (case-insensitive)')),
});

const key = z.string().check(z.describe(`matches ^\\w+$ (letters, digits, _), at most ${KEY_MAX_LENGTH} characters`));
const keys = z.array(z.string()).check(z.maxLength(KEYS_MAX));
const ref = z
  .union([z.number(), z.string()])
  .check(z.describe("integer id; also the user's uid, the field's or the farm's uuid"));
const object = z.record(z.string(), z.unknown());
const flag = (description: string) => z.optional(booleanLike()).check(z.describe(description));

// --- key-value ---------------------------------------------------------------------------------

export const KvPutBody = z.object({
  id: ref,
  key,
  data: z.optional(object).check(z.describe('the JSON object to store')),
  value: z
    .optional(object)
    .check(z.describe('accepted in place of data (the spec examples send it); data wins when both are sent')),
  overwrite: flag('default false: an existing key answers code 5'),
});

export const KvPatchBody = z.object({
  id: ref,
  key,
  data: z.optional(object).check(z.describe('the new object')),
  value: z.optional(object).check(z.describe('accepted in place of data')),
  append: flag('default false (replace). true: combine with the stored object (docs/decisions.md, Storage)'),
  create: flag('default false: an absent key answers code 5; true creates it'),
});

export const KvGetBody = z.object({
  ids: z
    .optional(z.array(ref).check(z.maxLength(IDS_MAX)))
    .check(z.describe('resource ids; empty or absent: every readable resource of the scope (users: the caller)')),
  keys: keys.check(z.describe('keys to fetch for every id; an empty array fetches every key')),
});

export const KvDeleteBody = z.object({ id: ref, keys: keys.check(z.minLength(1)) });

const info = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ info: z.object({ code: z.literal(0), ...shape }) });

export const kvStorageRoute = defineRoute({
  tags: ['storage'],
  auth: 'bearer',
  dialect: storageDialect,
  operationId: 'keyValueStorage',
  record: 'storage_value',
  // its GET with no keys answers every key of the resources asked (of every resource the caller
  // reads, without ids): the listing grows with the account
  ...growingList,
  handler: 'functions/storage/key-value.handler',
  ...storageClaim,
  touches: { table: 'write' },
  method: 'post',
  paths: ['/api/mktplace/storage/{scope}'],
  summary: 'Key-value storage of the calling extension under a user, a field or a farm',
  description:
    'The body depends on `operation`: PUT {id, key, data, overwrite}, PATCH {id, key, data, append, create}, ' +
    'GET {ids, keys}, DELETE {id, keys}. Codes: 0 ok; 1 data missing; 2 key invalid; 3 no permission on the resource; ' +
    '4 invalid extension version (no extension or no Storage permission); 5 key already exists (PUT), key absent (PATCH), ' +
    'id invalid (GET); 6 error. Codes below 0 are the general ones (-4 wrong format, -3 invalid token, -2 expired token).',
  request: {
    path: StoragePath,
    query: StorageQuery,
    body: z.union([KvPutBody, KvPatchBody, KvGetBody, KvDeleteBody]),
    validateBody: false,
  },
  responses: {
    200: {
      description: 'done; GET also answers info.objects {<id>: {<key>: object}}',
      schema: info({ objects: z.optional(z.record(z.string(), z.record(z.string(), object))) }),
    },
  },
});

/** POST /api/mktplace/storage: the same storage, with `scope` in the query or in the body. */
export const kvStorageScopesRoute = defineRoute({
  ...kvStorageRoute,
  operationId: 'keyValueStorageScopes',
  handler: 'functions/storage/key-value.scopes',
  paths: ['/api/mktplace/storage'],
  summary: 'Key-value storage, the scope given as `scope` (users, fields or farms) in the query or the body',
  request: {
    query: z.extend(StorageQuery, {
      scope: z.enum(SCOPES).check(z.describe('users, fields or farms (query or body)')),
    }),
    params: 'query-or-body',
    body: kvStorageRoute.request!.body,
    validateBody: false,
  },
});

// --- files -------------------------------------------------------------------------------------

const md5 = z.string().check(z.describe('base64 MD5 hash of the file (24 characters)'));
const fileSizeKb = z
  .union([z.number(), z.string()])
  .check(z.describe(`size in KB (1024 bytes), at most ${FILE_MAX_KB}`));
const resourceRefs = {
  user: z.optional(ref).check(z.describe("users scope: the user's uid (integer id also accepted)")),
  field: z.optional(ref).check(z.describe('fields scope: the field uuid or integer id')),
  farm: z.optional(ref).check(z.describe('farms scope: the farm uuid or integer id')),
};

export const FilePutBody = z.object({
  key,
  original_file_name: z.string().check(z.describe('the name the file is listed and downloaded with')),
  md5,
  file_size_kb: fileSizeKb,
  overwrite: flag('default false: an existing key answers code 5; true replaces it and deletes the old file now'),
  ...resourceRefs,
});

export const FilePatchBody = z.object({
  key,
  original_file_name: z.string(),
  md5,
  file_size_kb: fileSizeKb,
  create: flag('default false: an absent key answers code 5; true creates it'),
  ...resourceRefs,
});

export const FileGetBody = z.object({
  keys: keys.check(z.describe('keys to list; an empty array lists every key')),
  ids: z
    .optional(z.array(ref).check(z.maxLength(IDS_MAX)))
    .check(
      z.describe(
        'users scope: absent means the caller (answer without the resource level); fields and farms: absent means all accessible',
      ),
    ),
  get_url: flag('include a download URL valid for 10 seconds (null until the file is uploaded)'),
});

export const FileDeleteBody = z.object({ keys: keys.check(z.minLength(1)), ...resourceRefs });

export const WireFile = z.object({
  file_name: z.string(),
  file_size_kb: z.number(),
  created_at: z.string(),
  uploaded: z.boolean().check(z.describe('false until the file has been posted to the upload URL')),
  url: z.optional(z.nullable(z.string())),
});

const presignedPost = z.object({
  data: z.object({
    url: z.string(),
    fields: z.record(z.string(), z.string()).check(z.describe('post them all, plus Content-MD5, before the file')),
  }),
});

export const fileStorageRoute = defineRoute({
  tags: ['storage'],
  auth: 'bearer',
  dialect: fileStorageDialect,
  operationId: 'fileStorage',
  record: 'storage_file',
  // its GET lists every file of the resources asked (of every resource the caller reads, without
  // ids), each with its download URL: the list grows with the account
  ...growingList,
  handler: 'functions/storage/files.handler',
  ...storageClaim,
  touches: { table: 'write', sends: ['events'], files: { 'storage/': ['put', 'get', 'delete'] } },
  method: 'post',
  paths: ['/api/mktplace/filestorage/{scope}'],
  summary: 'File storage of the calling extension under a user, a field or a farm (S3 presigned uploads)',
  description:
    'PUT and PATCH answer a presigned POST valid for 10 seconds: send multipart/form-data to `url` with every entry of ' +
    '`fields`, a `Content-MD5` field with the declared md5, and the file last. GET {keys, ids, get_url} lists files; ' +
    'DELETE {keys, user|field|farm} deletes keys and their files and answers {data:{deleted}}. Codes: 1 data missing; ' +
    '2 key invalid; 3 no permission; 4 invalid extension version; 5 key exists (PUT) or absent (PATCH), id invalid (GET); ' +
    '7 file too large (10 MB).',
  request: {
    path: StoragePath,
    query: StorageQuery,
    body: z.union([FilePutBody, FilePatchBody, FileGetBody, FileDeleteBody]),
    validateBody: false,
  },
  responses: {
    200: {
      description: 'PUT/PATCH: a presigned POST; GET: {objects}; DELETE: {data:{deleted: keys}}',
      schema: z.union([
        presignedPost,
        z.object({ objects: z.record(z.string(), z.union([WireFile, z.record(z.string(), WireFile)])) }),
        z.object({ data: z.object({ deleted: z.array(z.string()) }) }),
      ]),
    },
  },
});

export const storageRoutes = [kvStorageRoute, kvStorageScopesRoute, fileStorageRoute];
