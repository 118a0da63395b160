// Black-box helpers: call the running local API as a client would.
import { inject } from 'vitest';
import { checkAnswer } from './contract';
import { square } from './shapes';

export const stack = () => inject('stack');

export interface Response<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  token?: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string | number | undefined>;
  body?: string | Buffer | FormData;
  headers?: Record<string, string>;
}

/** The request `call` and `download` send: its URL, headers and body from the options. */
function request(method: string, path: string, options: CallOptions): { url: URL; init: RequestInit } {
  const url = new URL(path, stack().baseUrl);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'];
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.form)) if (value !== undefined) params.set(key, String(value));
    body = params.toString();
  } else if (options.body !== undefined) {
    body = options.body as RequestInit['body'];
  }
  return { url, init: { method, headers, body } };
}

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Response<T>> {
  const { url, init } = request(method, path, options);
  const response = await fetch(url, init);
  const text = await response.text();
  checkAnswer(method, url.pathname, {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
  });
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: response.status, body: parsed as T, headers: response.headers, text };
}

export interface Download {
  status: number;
  /** The Content-Type header. */
  type: string | null;
  headers: Headers;
  bytes: Buffer;
}

/**
 * A file as a client downloads it (an image, a sheet, a raster, a zip): its bytes, the answer
 * checked against docs/openapi.json as `call`'s are (a JSON body, an error, against its schema).
 */
export async function download(method: string, path: string, options: CallOptions = {}): Promise<Download> {
  const { url, init } = request(method, path, options);
  const response = await fetch(url, init);
  const answer = {
    status: response.status,
    type: response.headers.get('content-type'),
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
  checkAnswer(method, url.pathname, {
    status: answer.status,
    contentType: answer.type,
    text: answer.type?.startsWith('application/json') ? answer.bytes.toString('utf8') : '',
    size: answer.bytes.length,
  });
  return answer;
}

export const internal = <T = any>(path: string, json: unknown, key = stack().internalKey) =>
  call<T>('POST', path, { json, headers: key ? { 'x-internal-key': key } : {} });

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

export interface TestUser {
  id: number;
  uid: string;
  user_name: string;
  locale: string;
  space_id: number;
  token: string;
}

export async function createUser(
  options: {
    features?: string[];
    hectare_quota?: number | null;
    space_id?: number;
    locale?: string;
    user_name?: string;
  } = {},
): Promise<Omit<TestUser, 'token'>> {
  const response = await internal('/internal/users', { user_name: options.user_name ?? unique('user'), ...options });
  if (response.status !== 200) throw new Error(`createUser: ${response.status} ${response.text}`);
  return response.body.data;
}

export async function tokenFor(
  userId: number,
  options: { claims?: string[]; extension_id?: string; extension_version?: string; ttl_s?: number } = {},
): Promise<string> {
  const response = await internal('/internal/tokens', {
    user_id: userId,
    claims: options.claims ?? ['*'],
    extension_id: options.extension_id ?? 'test-extension',
    extension_version: options.extension_version ?? '1.0.0',
    ...(options.ttl_s !== undefined ? { ttl_s: options.ttl_s } : {}),
  });
  if (response.status !== 200) throw new Error(`tokenFor: ${response.status} ${response.text}`);
  return response.body.data.access_token;
}

/** A new user (own workspace unless space_id) with a token carrying the given claims. */
export async function newUser(
  options: Parameters<typeof createUser>[0] & { claims?: string[]; extension_id?: string } = {},
): Promise<TestUser> {
  const { claims, extension_id, ...userOptions } = options;
  const user = await createUser(userOptions);
  return { ...user, token: await tokenFor(user.id, { claims, extension_id }) };
}

/** A square polygon of `size` degrees with its south-west corner at (lon, lat). */
export { IMAGERY_AREA, imagerySquare, square } from './shapes';

/** A farm with one field, owned by `user`; returns their ids. */
export async function createField(
  user: TestUser,
  options: { name?: string; farmName?: string; farmId?: number; shape?: string } = {},
): Promise<{ fieldId: number; farmId: number }> {
  const response = await call('POST', '/api/agregarlote', {
    token: user.token,
    form: {
      nombre: options.name ?? unique('field'),
      shape: options.shape ?? square(-60.5, -33.9),
      ...(options.farmId !== undefined
        ? { idcampo: options.farmId }
        : { nombrecampo: options.farmName ?? unique('farm').slice(0, 40) }),
    },
  });
  if (response.status !== 200) throw new Error(`createField: ${response.status} ${response.text}`);
  return { fieldId: Number(response.body.id_lote), farmId: response.body.id_campo };
}

/** Calls `probe` until it returns something other than undefined (or the time is up). */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 200,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Resolves once the wall clock is in a later second than when called (records store whole seconds). */
export async function nextSecond(): Promise<void> {
  const second = Math.floor(Date.now() / 1000);
  await eventually(async () => (Math.floor(Date.now() / 1000) > second ? true : undefined), 2000, 20);
}
