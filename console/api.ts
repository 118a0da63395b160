// The console's calls, through the typed client (clients/typescript): the console is a client of
// the API like any extension, with the token pasted in it.
import { createSurcoClient, type paths } from '../clients/typescript/index';

type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type FieldList = Ok<'/api/getfields', 'get'>;
export type Farm = FieldList['user']['farms'][string];
export type Field = Farm['fields'][string];
export type LayerDates = Ok<'/api/layers/dates/v3', 'get'>;
export type DateEntry = LayerDates['layers'][string]['dates'][number];
export type NdviSeries = Ok<'/api/fields/ndvi', 'get'>;
export type Spot = Ok<'/api/spots/spot', 'get'>['data'][number];
export type Labour = Ok<'/activities/labour', 'get'>['data'][number];

/** An answer other than 200: the status and what the API said. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: unknown,
  ) {
    super(`${status}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  }
}

export function consoleApi(baseUrl: string, token: () => string) {
  const client = createSurcoClient({ baseUrl, token });
  const ok = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
    const { data, error, response } = await call;
    if (!response.ok || data === undefined) throw new ApiError(response.status, error ?? response.statusText);
    return data;
  };
  return {
    fields: () => ok(client.GET('/api/getfields')),
    dates: (fieldId: number) => ok(client.GET('/api/layers/dates/v3', { params: { query: { field_id: fieldId } } })),
    ndvi: (fieldId: number) => ok(client.GET('/api/fields/ndvi', { params: { query: { field_id: fieldId } } })),
    scaleTemplates: () => ok(client.GET('/api/layers/scale_template')),
    spots: (fieldId: number) =>
      ok(client.GET('/api/spots/spot', { params: { query: { field_id: fieldId, page_size: -1 } } })),
    samplings: (fieldId: number) => ok(client.GET('/api/sampling', { params: { query: { field_id: fieldId } } })),
    labours: (fieldId: number, yeargroup: number) =>
      ok(
        client.GET('/activities/labour', {
          params: { query: { yeargroup, fields_id: String(fieldId), page_size: 200 } },
        }),
      ),
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;
