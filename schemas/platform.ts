// The platform's internal API (docs/internal-api.md): users, supervisions, shares, tokens.
// Called by internal services and black-box tests with the x-internal-key header.
import * as z from 'zod/mini';
import { ALL_CLAIMS, CLAIMS } from '../lib/auth/claims';
import { SHARE_LEVELS, SUPERVISION_LEVELS } from '../lib/authz/access';
import { internalDialect } from '../lib/http/dialects';
import { defineRoute } from '../lib/http/route';
import { LOCALES } from '../lib/platform/model';
import { okData, text } from './common';

const id = z.number().check(z.int(), z.positive());

export const CreateUserBody = z.object({
  user_name: text(200, 1, { trim: true }),
  locale: z._default(z.enum(LOCALES), 'es'),
  features: z
    .optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(100)))
    .check(z.describe("plan features (claim names); default all ('*')")),
  hectare_quota: z
    .optional(z.nullable(z.number().check(z.nonnegative())))
    .check(z.describe('hectares the user may own; default no limit')),
  space_id: z
    .optional(id)
    .check(z.describe('workspace to join; without it a new workspace is created with this user as administrator')),
});

export const InternalUser = z.object({
  id,
  uid: z.string(),
  user_name: z.string(),
  locale: z.enum(LOCALES),
  space_id: id,
});

export const CreateSupervisionBody = z.object({
  supervisor_id: id,
  user_id: id,
  permission: z.enum(SUPERVISION_LEVELS as [string, ...string[]]),
});

export const CreateShareBody = z
  .object({
    user_id: id,
    farm_id: z.optional(id),
    field_id: z.optional(id),
    permission: z.enum(SHARE_LEVELS as [string, ...string[]]),
  })
  .check(
    z.refine((b) => (b.farm_id === undefined) !== (b.field_id === undefined), {
      message: 'exactly one of farm_id and field_id is required',
    }),
  );

const claimName = z
  .string()
  .check(
    z.refine((c) => c === ALL_CLAIMS || (CLAIMS as readonly string[]).includes(c), { message: 'unknown claim name' }),
  );

export const CreateTokenBody = z.object({
  user_id: id,
  extension_id: z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
    .check(z.describe("absent: the user's own session")),
  extension_version: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  claims: z.array(claimName).check(z.maxLength(100)),
  ttl_s: z
    .optional(z.number().check(z.int()))
    .check(z.describe('default 30 days; 0 or negative mints an already expired token')),
});

export const Token = z.object({ access_token: z.string(), expires_at: z.string() });

const internalRoute = {
  tags: ['internal'],
  auth: 'internal',
  dialect: internalDialect,
} as const;

export const createUserRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalCreateUser',
  handler: 'functions/platform/users.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/internal/users'],
  summary: 'Create a user (and its workspace)',
  request: { body: CreateUserBody },
  responses: { 200: { description: 'the user', schema: okData(InternalUser) } },
});

export const createSupervisionRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalCreateSupervision',
  handler: 'functions/platform/supervisions.post',
  touches: { table: 'write' },
  method: 'post',
  paths: ['/internal/supervisions'],
  summary: 'Make a user supervisor of another (read or edit)',
  request: { body: CreateSupervisionBody },
  responses: { 200: { description: 'the supervision', schema: okData(CreateSupervisionBody) } },
});

export const createShareRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalCreateShare',
  handler: 'functions/platform/shares.post',
  touches: { table: 'write', sends: ['events'] },
  method: 'post',
  paths: ['/internal/shares'],
  summary: 'Share a farm or a field with a user; emits FIELD_SHARE.V1',
  request: { body: CreateShareBody },
  responses: {
    200: {
      description: 'the share',
      schema: okData(
        z.object({ user_id: id, farm_id: z.optional(id), field_id: z.optional(id), permission: z.string() }),
      ),
    },
  },
});

export const DeleteShareBody = z.object({ user_id: id, farm_id: z.optional(id), field_id: z.optional(id) }).check(
  z.refine((b) => (b.farm_id === undefined) !== (b.field_id === undefined), {
    message: 'exactly one of farm_id and field_id is required',
  }),
);

export const deleteShareRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalDeleteShare',
  handler: 'functions/platform/shares.del',
  touches: { table: 'write' },
  method: 'delete',
  paths: ['/internal/shares'],
  summary: 'Withdraw a share of a farm or a field from a user (the change feed tells the user: access_lost)',
  request: { body: DeleteShareBody },
  responses: { 200: { description: 'withdrawn', schema: okData(DeleteShareBody) } },
});

export const createTokenRoute = defineRoute({
  ...internalRoute,
  operationId: 'internalCreateToken',
  handler: 'functions/platform/tokens.post',
  touches: { table: 'write', secrets: ['signingSeed'] },
  method: 'post',
  paths: ['/internal/tokens'],
  summary: 'Mint an access token for a user and (optionally) an extension version',
  request: { body: CreateTokenBody },
  responses: { 200: { description: 'the token', schema: okData(Token) } },
});

export const platformRoutes = [
  createUserRoute,
  createSupervisionRoute,
  createShareRoute,
  deleteShareRoute,
  createTokenRoute,
];
