// Conditional requests (docs/integrations.md "ETags"): one mechanism for every route that
// declares the kind of record it serves (`record` in lib/http/route.ts). The handler runs in a
// revision scope (lib/db/revision.ts) built from If-Match / If-None-Match; the table helpers make
// each write of a record of that kind conditional on it, atomically. Here, after the handler: a
// conditional request that wrote nothing is checked against what it read, and the answer carries
// the ETag of the one record it read (a GET) or wrote.

import { newScope, PreconditionFailed, type RecordKind, type RevisionScope, runInScope } from '../db/revision';
import { Invalid } from '../errors';

/** An ETag as sent: a record's revision, quoted (strong). */
export const etagOf = (rev: string): string => `"${rev}"`;

/**
 * The entity tags of an If-Match or If-None-Match header: '*', or the list of quoted tags (weak
 * tags, `W/"…"`, never match: If-Match compares strongly). undefined when absent.
 */
export function parseEntityTags(header: string | undefined): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (value === '*') return '*';
  const tags: string[] = [];
  for (const part of value.split(',')) {
    const tag = part.trim();
    if (tag === '') continue;
    const strong = /^"([\x21\x23-\x7e]*)"$/.exec(tag);
    if (strong) tags.push(strong[1]!);
    else if (/^W\/"[\x21\x23-\x7e]*"$/.test(tag)) tags.push(`\u0000weak`);
    else throw new Invalid(`malformed entity tag ${JSON.stringify(tag.slice(0, 80))} (expected "…" or *)`);
  }
  if (!tags.length) throw new Invalid('If-Match / If-None-Match without an entity tag');
  return tags;
}

/** The revision scope of a request to a route of `kind`. */
export function scopeOf(kind: RecordKind, method: string, headers: Record<string, string | undefined>): RevisionScope {
  // If-Match on any method (a GET answers 412 if the record changed; borrarlotes deletes by GET);
  // If-None-Match only on writes (a GET answers in full: no 304)
  const write = method !== 'GET' && method !== 'HEAD';
  const ifMatch = parseEntityTags(headers['if-match']);
  const ifNoneMatch = write ? parseEntityTags(headers['if-none-match']) : undefined;
  if (ifNoneMatch !== undefined && ifNoneMatch !== '*')
    throw new Invalid('If-None-Match on a write takes only * (create only if the record does not exist)');
  if (ifMatch !== undefined && ifNoneMatch !== undefined)
    throw new Invalid('If-Match and If-None-Match cannot be sent together');
  return newScope(kind, { ifMatch, ifNoneMatch: ifNoneMatch === '*' });
}

/** Runs a handler in its revision scope; answers the ETag to add, and throws 412 for a precondition it broke without writing. */
export async function runConditional<T>(
  scope: RevisionScope,
  handler: () => Promise<T>,
): Promise<{ out: T; etag?: string }> {
  const out = await runInScope(scope, handler);
  const written = [...scope.written.values()];
  const wroteRecord = written.some((rev) => rev !== undefined);
  if (scope.ifNoneMatch && !wroteRecord && scope.read.size > 0)
    // a create answered with the record that already exists (an idempotent repeat): nothing was written
    throw new PreconditionFailed('the record exists (If-None-Match: *)');
  if (Array.isArray(scope.ifMatch) && written.length === 0) {
    const tags = scope.ifMatch;
    if ([...scope.read.values()].some((rev) => !tags.includes(rev))) throw new PreconditionFailed();
  }
  if (written.length === 1 && written[0] !== undefined) return { out, etag: etagOf(written[0]) };
  if (written.length === 0 && scope.read.size === 1) return { out, etag: etagOf([...scope.read.values()][0]!) };
  return { out };
}
