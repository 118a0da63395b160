// What a create request said, in a form to compare later: a client uuid sent again with the same
// body is a replay (answered as the first time), with another body a conflict (docs/decisions.md,
// General, "Client uuids").
import { createHash } from 'node:crypto';

/** JSON with object members in a stable order, `undefined` members left out. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value && typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A short digest of a request's members (SHA-256 of their canonical JSON, base64url). */
export const fingerprint = (value: unknown): string =>
  createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 22);
