// Sensors v2 (spec 1): variable groups, variables, values; plus reading values and the bulk path
// (docs/sensors-storage.md). Under /sensors/v2; bodies `{res:'ok'|'error', ...}`.
import * as z from 'zod/mini';
import { sensorsDialect } from '../lib/http/dialects';
import { defineRoute, growingList } from '../lib/http/route';
import type { GroupWithVariables } from '../lib/sensors/groups';
import { BULK_MAX_BYTES, SENSOR_LIMITS, type Variable } from '../lib/sensors/model';
import { dateTimeZ, jsonObject, text as textOf } from './common';

const sensorsRoute = { tags: ['sensors'], auth: 'bearer', dialect: sensorsDialect } as const;
const path = (p: string) => [`/sensors/v2${p}`];
const timestamp = z.string().check(z.describe('YYYY-MM-DDTHH:MM:SSZ'));

const WireVariableFields = {
  variable_uuid: z.string(),
  created_at: z.string(),
  deleted_at: z.nullable(z.string()),
  variable_name: z.string(),
  user_variable_name: z.string(),
  device: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  last_value: z.nullable(z.number()),
  last_value_time: z.nullable(z.string()),
};
export const WireVariable = z.object({ ...WireVariableFields, group_uuid: z.string() });
export const WireCreatedVariable = z.object({ ...WireVariableFields, group_id: z.number().check(z.int()) });

export const WireGroup = z.object({
  group_uuid: z.string(),
  created_at: z.string(),
  deleted_at: z.nullable(z.string()),
  group_name: z.string(),
  user_group_name: z.nullable(z.string()),
  device: z.string(),
  position: z.nullable(z.string()),
  user_position: z.nullable(z.string()),
  timezone_offset: z.number().check(z.int()),
  metadata: z.record(z.string(), z.unknown()),
  variables: z.array(WireVariable),
});

const variableFields = (v: Variable) => ({
  variable_uuid: v.uuid,
  created_at: v.createdAt,
  deleted_at: v.deletedAt,
  variable_name: v.variableName,
  user_variable_name: v.userVariableName,
  device: v.device,
  metadata: v.metadata,
  last_value: v.lastValue,
  last_value_time: v.lastValueTime,
});

/** In lists a variable carries group_uuid; in create/update responses group_id (spec 1). */
export const wireVariable = (v: Variable) => ({ ...variableFields(v), group_uuid: v.groupUuid });
export const wireCreatedVariable = (v: Variable) => ({ ...variableFields(v), group_id: v.groupId });

export const wireGroup = ({ group: g, variables }: GroupWithVariables): z.infer<typeof WireGroup> => ({
  group_uuid: g.uuid,
  created_at: g.createdAt,
  deleted_at: g.deletedAt,
  group_name: g.groupName,
  user_group_name: g.userGroupName,
  device: g.device,
  position: g.position,
  user_position: g.userPosition,
  timezone_offset: g.timezoneOffset,
  metadata: g.metadata,
  variables: variables.map(wireVariable),
});

// --- requests: the shapes of rule 1 (create) and rule 2 (update, only the changed properties) -----

const text = () => textOf(SENSOR_LIMITS.TEXT);
const metadata = () =>
  jsonObject().check(
    z.refine(
      (m) => Buffer.byteLength(JSON.stringify(m)) <= SENSOR_LIMITS.METADATA_BYTES,
      `metadata is at most ${SENSOR_LIMITS.METADATA_BYTES} bytes of JSON`,
    ),
  );
const dateTime = dateTimeZ();

const VariableInput = z
  .object({
    variable_uuid: z.optional(z.string().check(z.uuid())),
    variable_name: z.optional(text()).check(z.describe('required when the variable is created')),
    device: z.optional(z.nullable(text())),
    metadata: z.optional(z.nullable(metadata())),
  })
  .check(
    z.describe(
      'a variable: created when its variable_uuid is new; otherwise only variable_name, device and metadata change (rule 3)',
    ),
  );

const groupFields = {
  created_at: z.optional(dateTime).check(z.describe('YYYY-MM-DDTHH:MM:SSZ; now by default')),
  deleted_at: z
    .optional(z.nullable(dateTime))
    .check(z.describe('YYYY-MM-DDTHH:MM:SSZ; null: not deleted. Setting it deletes the group and its variables')),
  user_group_name: z.optional(z.nullable(text())).check(z.describe('ignored on update')),
  device: z.optional(z.nullable(text())),
  position: z.optional(z.nullable(text())),
  user_position: z.optional(z.nullable(text())).check(z.describe('ignored on update')),
  timezone_offset: z
    .optional(z.number().check(z.int(), z.gte(-SENSOR_LIMITS.TIMEZONE_MINUTES), z.lte(SENSOR_LIMITS.TIMEZONE_MINUTES)))
    .check(z.describe('minutes from UTC; 0 by default; never null')),
  metadata: z.optional(z.nullable(metadata())),
  variables: z.optional(z.array(VariableInput).check(z.maxLength(SENSOR_LIMITS.VARIABLES_PER_REQUEST))),
};

/** Accepted fields on create (spec 1, rule 1); anything else is a parameter error. */
export const CreateGroupBody = z.strictObject({
  group_uuid: z.optional(z.string().check(z.uuid())),
  group_name: text().check(z.describe('required')),
  ...groupFields,
});

/** Update (rule 2): group_uuid and the changed properties only. */
export const UpdateGroupBody = z.strictObject({
  group_uuid: z.string().check(z.uuid()),
  group_name: z.optional(text()),
  ...groupFields,
});
export const GroupRef = z.object({ group_uuid: z.string().check(z.uuid()) });
export const CreateVariableBody = z.object({ group_uuid: z.string().check(z.uuid()), variable: VariableInput });
/** Other keys are accepted and not applied (rule 3). */
export const UpdateVariableBody = z.looseObject({
  variable_uuid: z.string().check(z.uuid()),
  variable_name: z.optional(text()),
  device: z.optional(z.nullable(text())),
  metadata: z.optional(z.nullable(metadata())),
});
export const VariableRef = z.object({ variable_uuid: z.string().check(z.uuid()) });
export const ValuesBody = z.object({
  data: z.array(
    z.object({
      variable_uuid: z.string(),
      values: z.array(z.number()),
      timestamps: z.array(timestamp),
      metadata: z.optional(z.array(z.record(z.string(), z.unknown()))),
    }),
  ),
});

const ok = <T extends z.core.$ZodLooseShape>(shape: T) => z.object({ res: z.literal('ok'), ...shape });

export const listGroupsRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'listVariableGroups',
  record: 'sensor_group',
  handler: 'functions/sensors/groups.list',
  claims: ['VARIABLE_GROUPS_READ'],
  method: 'get',
  paths: path('/providers/variablegroups'),
  summary: "The caller's variable groups with their variables (an extension: its own; the user: every extension's)",
  request: { query: z.object({ group_uuid: z.optional(z.string().check(z.uuid())) }) },
  responses: { 200: { description: 'groups', schema: ok({ data: z.array(WireGroup) }) } },
  ...growingList,
});

export const createGroupRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'createVariableGroup',
  record: 'sensor_group',
  handler: 'functions/sensors/groups.post',
  claims: ['VARIABLE_GROUPS_CREATE'],
  touches: { table: 'write' },
  method: 'post',
  paths: path('/providers/variablegroups'),
  summary: 'Create a variable group (with variables); a repeated group_uuid returns the group',
  request: { body: CreateGroupBody },
  responses: {
    200: {
      description: 'created',
      schema: ok({ data: WireGroup, info: z.literal('variable group created successfully') }),
    },
  },
});

export const updateGroupRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'updateVariableGroup',
  record: 'sensor_group',
  handler: 'functions/sensors/groups.patch',
  claims: ['VARIABLE_GROUPS_UPDATE'],
  touches: { table: 'write' },
  method: 'patch',
  paths: path('/providers/variablegroups'),
  summary: 'Change the fields sent (user_group_name and user_position are ignored)',
  request: { body: UpdateGroupBody },
  responses: {
    200: {
      description: 'updated',
      schema: ok({ data: WireGroup, info: z.literal('variable group updated successfully') }),
    },
  },
});

export const deleteGroupRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'deleteVariableGroup',
  record: 'sensor_group',
  handler: 'functions/sensors/groups.del',
  claims: ['VARIABLE_GROUPS_DELETE'],
  touches: { table: 'write' },
  method: 'delete',
  paths: path('/providers/variablegroups'),
  summary: 'Delete a variable group and its variables (deleted_at is set)',
  request: { query: GroupRef, params: 'query-or-body' },
  responses: {
    200: { description: 'deleted', schema: ok({ info: z.literal('variable group deleted successfully') }) },
  },
});

export const createVariableRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'createVariable',
  record: 'sensor_variable',
  handler: 'functions/sensors/variables.post',
  claims: ['VARIABLES_CREATE'],
  touches: { table: 'write' },
  method: 'post',
  paths: path('/providers/variables'),
  summary: 'Create a variable in a group',
  request: { body: CreateVariableBody },
  responses: {
    200: {
      description: 'created',
      schema: ok({ data: WireCreatedVariable, info: z.literal('variable created successfully') }),
    },
  },
});

export const updateVariableRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'updateVariable',
  record: 'sensor_variable',
  handler: 'functions/sensors/variables.patch',
  claims: ['VARIABLE_GROUPS_UPDATE'],
  touches: { table: 'write' },
  method: 'patch',
  paths: path('/providers/variables'),
  summary: 'Change variable_name, device and metadata (other keys are not applied)',
  request: { body: UpdateVariableBody },
  responses: {
    200: {
      description: 'updated',
      schema: ok({ data: WireCreatedVariable, info: z.literal('variable updated successfully') }),
    },
  },
});

export const deleteVariableRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'deleteVariable',
  record: 'sensor_variable',
  handler: 'functions/sensors/variables.del',
  claims: ['VARIABLES_DELETE'],
  touches: { table: 'write' },
  method: 'delete',
  paths: path('/providers/variables'),
  summary: 'Delete a variable (deleted_at is set)',
  request: { query: VariableRef, params: 'query-or-body' },
  responses: { 200: { description: 'deleted', schema: ok({ info: z.literal('variable deleted successfully') }) } },
});

export const VALUES_MAX_BODY_BYTES = 10 * 1024 * 1024;

export const insertValuesRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'insertValues',
  handler: 'functions/sensors/values.insert',
  claims: ['VARIABLES_CREATE'],
  touches: { table: 'write' },
  lambda: { timeout: 25, memorySize: 1536 },
  method: 'post',
  paths: path('/providers/values/variables'),
  summary: 'Insert values (at most 2,000,000; larger bodies: the bulk path)',
  description:
    'HTTP 204 with header x-info "no values were inserted" when nothing is sent. A repeated timestamp keeps the value written last.',
  request: { body: ValuesBody, validateBody: false },
  maxBodyBytes: VALUES_MAX_BODY_BYTES,
  responses: {
    200: { description: 'inserted', schema: ok({ info: z.literal('values inserted') }) },
    204: { description: 'no values were inserted' },
  },
});

export const readValuesRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'readValues',
  handler: 'functions/sensors/values.read',
  claims: ['VARIABLES_READ'],
  lambda: { timeout: 25 },
  method: 'get',
  paths: path('/providers/values/variables'),
  summary:
    'Values of one variable in a time range, paged; with interval, downsampled (min, max, mean, count per bucket)',
  request: {
    query: z.object({
      variable_uuid: z.string().check(z.uuid()),
      from: z.optional(dateTimeZ()).check(z.describe('inclusive; the epoch by default')),
      to: z.optional(dateTimeZ()).check(z.describe('inclusive; now by default')),
      limit: z
        .optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)))
        .check(z.describe('values (or buckets) per page, default 1000')),
      cursor: z.optional(z.string()),
      interval: z
        .optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(366 * 86_400)))
        .check(z.describe('bucket size in seconds')),
    }),
  },
  responses: { 200: { description: 'a page of values', schema: ok({ data: z.record(z.string(), z.unknown()) }) } },
});

const BulkJob = z.object({
  job_uuid: z.string(),
  status: z.enum(['awaiting_upload', 'processing', 'done', 'failed']),
  created_at: z.string(),
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  values_total: z.nullable(z.number()),
  values_inserted: z.nullable(z.number()),
  variables: z.nullable(z.number()),
  items_written: z.nullable(z.number()),
  write_units: z.nullable(z.number()),
  peak_heap_mb: z.nullable(z.number()),
  attempts: z.number().check(z.int()),
  error: z.nullable(z.object({ code: z.string(), info: z.string() })),
});

export const createBulkRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'createValuesBulkUpload',
  handler: 'functions/sensors/values.bulk',
  claims: ['VARIABLES_CREATE'],
  touches: { table: 'write', files: { 'sensor-bulk/': ['put'] } },
  method: 'post',
  paths: path('/providers/values/bulk'),
  summary:
    'Start a bulk upload: a presigned S3 POST for a values body (JSON or gzipped JSON, up to 512 MiB) of the declared size and MD5',
  request: {
    body: z.object({
      size_bytes: z.number().check(z.int(), z.gte(1), z.lte(BULK_MAX_BYTES), z.describe('bytes of the file to upload')),
      md5: z
        .string()
        .check(
          z.regex(/^[A-Za-z0-9+/]{22}==$/, 'base64 MD5 (24 characters)'),
          z.describe('base64 MD5 of the file (openssl md5 -binary FILE | base64); send it as the Content-MD5 field'),
        ),
    }),
  },
  responses: {
    200: {
      description: 'the job and where to upload',
      schema: ok({
        data: z.object({
          job_uuid: z.string(),
          status: z.literal('awaiting_upload'),
          upload: z.object({ url: z.string(), fields: z.record(z.string(), z.string()) }),
          expires_in: z.number().check(z.int()),
          max_bytes: z.number().check(z.int()),
        }),
      }),
    },
  },
});

export const bulkStatusRoute = defineRoute({
  ...sensorsRoute,
  operationId: 'getValuesBulkJob',
  handler: 'functions/sensors/values.bulkStatus',
  claims: ['VARIABLES_CREATE'],
  method: 'get',
  paths: path('/providers/values/bulk/{job_uuid}'),
  summary: 'State of a bulk upload',
  request: { path: z.object({ job_uuid: z.string().check(z.uuid()) }) },
  responses: { 200: { description: 'the job', schema: ok({ data: BulkJob }) } },
});

export const sensorRoutes = [
  listGroupsRoute,
  createGroupRoute,
  updateGroupRoute,
  deleteGroupRoute,
  createVariableRoute,
  updateVariableRoute,
  deleteVariableRoute,
  insertValuesRoute,
  readValuesRoute,
  createBulkRoute,
  bulkStatusRoute,
];
