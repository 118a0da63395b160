// Storage bodies are parsed with the schema of their operation (schemas/storage.ts); what is wrong
// with them becomes the storage codes (docs/decisions.md, "Storage"):
//   a required member missing -> 1 (data missing; DELETE: key not provided)
//   data/value not a JSON object -> 1
//   key or keys not matching ^\w+$ -> 2
//   ids holding something that is no id -> 5
//   anything else of the wrong type or format, more than 100 ids or keys -> -4 (the general wrong-format code)
import type * as z from 'zod/mini';
import { GENERAL_CODES, Invalid } from '../errors';
import { describeIssues } from '../util/issues';
import { KEY_MAX_LENGTH, type Scope, validKey } from './access';
import { STORAGE_CODES } from './codes';
import { parseSizeKb } from './files';

const CODE_BY_MEMBER: Record<string, number> = {
  key: STORAGE_CODES.KEY_INVALID,
  keys: STORAGE_CODES.KEY_INVALID,
  data: STORAGE_CODES.DATA_MISSING,
  value: STORAGE_CODES.DATA_MISSING,
  ids: STORAGE_CODES.ID_INVALID,
};

export function parseStorageBody<S extends z.ZodMiniType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new Invalid('the body must be a JSON object', { code: STORAGE_CODES.DATA_MISSING });
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) {
    const issues = result.error.issues;
    const missing = issues.find(
      (issue) =>
        (issue.path.length === 1 && issue.input === undefined) ||
        (issue.code === 'too_small' && Array.isArray(issue.input) && issue.input.length === 0),
    );
    if (missing) throw new Invalid(`${String(missing.path[0])} is required`, { code: STORAGE_CODES.DATA_MISSING });
    const issue = issues.find((i) => CODE_BY_MEMBER[String(i.path[0])] !== undefined) ?? issues[0]!;
    // too many ids or keys is a wrong format, not an invalid id or key
    const tooMany = issue.code === 'too_big' && issue.origin === 'array';
    throw new Invalid(describeIssues([issue]), {
      code: (!tooMany && CODE_BY_MEMBER[String(issue.path[0])]) || GENERAL_CODES.WRONG_FORMAT,
    });
  }
  const parsed = result.data as Record<string, unknown>;
  const keys =
    typeof parsed.key === 'string' ? [parsed.key] : Array.isArray(parsed.keys) ? (parsed.keys as string[]) : [];
  const bad = keys.find((key) => !validKey(key));
  if (bad !== undefined) {
    throw new Invalid(
      `invalid key ${JSON.stringify(bad.slice(0, 50))}: keys match ^\\w+$ and have at most ${KEY_MAX_LENGTH} characters`,
      {
        code: STORAGE_CODES.KEY_INVALID,
      },
    );
  }
  return result.data;
}

/** The object sent as `data`, or as `value` (the spec's examples); code 1 when neither is there. */
export function objectSent(body: {
  data?: Record<string, unknown>;
  value?: Record<string, unknown>;
}): Record<string, unknown> {
  const data = body.data ?? body.value;
  if (data === undefined)
    throw new Invalid('data is required (a JSON object; value is accepted too)', { code: STORAGE_CODES.DATA_MISSING });
  return data;
}

/** The member that names a file's resource in each scope (`id` is accepted in all of them). */
const REF_MEMBER: Record<Scope, 'user' | 'field' | 'farm'> = { users: 'user', fields: 'field', farms: 'farm' };

/** The resource a file body names in its scope (`user`, `field` or `farm`, or `id`); code 1 when none. */
export function resourceRef(
  scope: Scope,
  body: { user?: unknown; field?: unknown; farm?: unknown },
  sent: unknown,
): unknown {
  const member = REF_MEMBER[scope];
  const ref = body[member] ?? (sent as { id?: unknown }).id;
  if (ref === undefined || ref === '')
    throw new Invalid(`${member} is required in the ${scope} scope`, { code: STORAGE_CODES.DATA_MISSING });
  return ref;
}

/** A file's declaration in a PUT or PATCH body (`sent`: the body as sent, for its `id`). */
export const fileDeclaration = (
  scope: Scope,
  input: {
    key: string;
    original_file_name: string;
    md5: string;
    file_size_kb: unknown;
    user?: unknown;
    field?: unknown;
    farm?: unknown;
  },
  sent: unknown,
) => ({
  ref: resourceRef(scope, input, sent),
  key: input.key,
  fileName: input.original_file_name,
  md5: input.md5,
  sizeKb: parseSizeKb(input.file_size_kb),
});
