// Builds the OpenAPI 3.1 document from the route definitions (their zod schemas are the
// contract). Served at GET /openapi.json and written to docs/openapi.json by scripts/openapi.ts.
import * as z from 'zod/mini';
import { type Dialect, generalDialect } from './dialects';
import type { RouteDef } from './route';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
};

const CONTENT_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
} as const;

/**
 * The 429 of fair use (docs/integrations.md, "Rate limits") for a route of `dialect`: the local
 * gateway answers in the route's dialect, API Gateway's own throttle in the general one.
 */
function tooManyRequestsResponse(dialect: Dialect): Record<string, unknown> {
  const general = toSchema(generalDialect.errorSchema(), 'output');
  return {
    description:
      "over the rate or burst of the caller's extension or of the user within it, or over the extension's daily quota; nothing reached the function. Retry after the seconds Retry-After gives",
    headers: {
      'Retry-After': {
        description: 'whole seconds until a request is let through again',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: {
      'application/json': {
        schema: dialect === generalDialect ? general : { anyOf: [toSchema(dialect.errorSchema(), 'output'), general] },
      },
    },
  };
}

function parameters(schema: z.ZodMiniType | undefined, location: 'query' | 'path') {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

const ETAG_HEADER = {
  description:
    'the revision of the record answered (or written): send it back in If-Match to change the record only if nobody changed it since (docs/integrations.md)',
  schema: { type: 'string' },
};

const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'the ETag of the record as last read ("…", a list, or *): the change is made only if the record still has it, else 412 and nothing is written',
  schema: { type: 'string' },
};

/** If-Match on changes and deletes, If-None-Match on creates, of a route that serves a kind of record. */
function conditionalHeaders(route: RouteDef) {
  if (!route.record) return [];
  if (route.method === 'patch' || route.method === 'put' || route.method === 'delete') return [IF_MATCH];
  if (route.method === 'post')
    return [
      // a POST that also changes and deletes (extension storage: the operation is a parameter)
      ...(route.record === 'storage_value' || route.record === 'storage_file' ? [IF_MATCH] : []),
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description:
          '*: create only if no record of the caller has the uuid sent (a repeat answers 412 instead of the existing record)',
        schema: { type: 'string', enum: ['*'] },
      },
    ];
  return [];
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

/** A webhook the platform sends (OpenAPI 3.1 `webhooks`): its summary and the JSON body the receiver gets. */
export interface WebhookDoc {
  summary: string;
  body: z.ZodMiniType;
}

export function buildOpenApi(
  routes: readonly RouteDef[],
  info: OpenApiInfo,
  webhooks: Record<string, WebhookDoc> = {},
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tooManyRequests: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.undocumented || route.method === 'any') continue;
    route.paths.forEach((path, index) => {
      const operation: Record<string, unknown> = {
        operationId: index === 0 ? route.operationId : `${route.operationId}${index + 1}`,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: [...route.tags],
        security:
          route.auth === 'bearer' ? [{ bearerAuth: [] }] : route.auth === 'internal' ? [{ internalKey: [] }] : [],
      };
      const params = [
        ...parameters(route.request?.path, 'path'),
        ...parameters(route.request?.query, 'query'),
        ...conditionalHeaders(route),
      ];
      if (params.length) operation.parameters = params;
      if (route.request?.body) {
        operation.requestBody = {
          required: true,
          content: {
            [CONTENT_TYPES[route.request.bodyType ?? 'json']]: { schema: toSchema(route.request.body, 'input') },
          },
        };
      }
      const responses: Record<string, unknown> = {};
      for (const [status, doc] of Object.entries(route.responses)) {
        // a file (image, sheet, zip, PDF, raster) is bytes; an event stream or a CSV is text
        const types = doc.contentType === undefined ? [] : [doc.contentType].flat();
        const binary = (type: string) => type !== 'application/json' && !type.startsWith('text/');
        responses[status] = {
          description: doc.description,
          ...(route.record && status === '200' ? { headers: { ETag: ETAG_HEADER } } : {}),
          ...(types.some(binary)
            ? {
                content: Object.fromEntries(
                  types.map((type) => [
                    type,
                    { schema: binary(type) ? { type: 'string', format: 'binary' } : { type: 'string' } },
                  ]),
                ),
              }
            : doc.schema || types.length
              ? {
                  content: {
                    [types[0] ?? 'application/json']: doc.schema ? { schema: toSchema(doc.schema, 'output') } : {},
                  },
                }
              : {}),
        };
      }
      if (route.record && route.method !== 'get') {
        responses['412'] = {
          description: `the record changed since the ETag sent in If-Match (or exists, with If-None-Match: *); nothing was written. In the ${route.dialect.name} dialect`,
          content: { 'application/json': { schema: toSchema(route.dialect.errorSchema(), 'output') } },
        };
      }
      // fair use per extension (docs/integrations.md, "Rate limits"): one answer per dialect, in components
      if (route.auth === 'bearer') {
        const name = `TooManyRequests_${route.dialect.name.replace(/\W+/g, '_')}`;
        tooManyRequests[name] ??= tooManyRequestsResponse(route.dialect);
        responses['429'] = { $ref: `#/components/responses/${name}` };
      }
      responses.default = {
        description: `error, in the ${route.dialect.name} dialect`,
        content: { 'application/json': { schema: toSchema(route.dialect.errorSchema(), 'output') } },
      };
      operation.responses = responses;
      (paths[path] ??= {})[route.method] = operation;
    });
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    ...(Object.keys(webhooks).length
      ? {
          webhooks: Object.fromEntries(
            Object.entries(webhooks).map(([name, doc]) => [
              name,
              {
                post: {
                  operationId: `webhook_${name.replace(/\W/g, '_')}`,
                  summary: doc.summary,
                  description:
                    'Sent signed (surco-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">) to the subscribed URL; docs/integrations.md.',
                  tags: ['webhooks'],
                  requestBody: {
                    required: true,
                    content: { 'application/json': { schema: toSchema(doc.body, 'output') } },
                  },
                  responses: { 200: { description: 'any 2xx answer delivers it; anything else is retried' } },
                },
              },
            ]),
          ),
        }
      : {}),
    components: {
      responses: Object.fromEntries(Object.entries(tooManyRequests).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        internalKey: { type: 'apiKey', in: 'header', name: 'x-internal-key' },
      },
    },
  };
}
