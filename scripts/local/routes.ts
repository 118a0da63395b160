// The routes of every service as the local gateway needs them: which declared path a request path
// falls on (as API Gateway matches: literal parts before `{param}` before `{proxy+}`), the methods
// declared on it, and the dialect its errors are answered in.
import type { Dialect } from '../../lib/http/dialects';
import { unknownRouteDialect } from '../../lib/http/dialects';
import type { RouteDef } from '../../lib/http/route';

export interface PathMatch {
  /** The declared path (`/api/rotations/{rotation_uuid}`). */
  path: string;
  methods: string[];
  dialect: Dialect;
}

interface Compiled extends PathMatch {
  pattern: RegExp;
  /** Sorts literal paths before parameterised ones, and those before greedy ones. */
  rank: number;
}

const compile = (path: string): { pattern: RegExp; rank: number } => {
  const parts = path.split('/').filter(Boolean);
  const pattern = parts
    .map((part) =>
      part.endsWith('+}')
        ? '(?:/.+)'
        : part.startsWith('{')
          ? '/[^/]+'
          : `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    )
    .join('');
  const rank = parts.reduce(
    (sum, part, index) => sum + (part.endsWith('+}') ? 1000 : part.startsWith('{') ? 10 : 0) * (parts.length - index),
    0,
  );
  return { pattern: new RegExp(`^${pattern || '/'}$`), rank };
};

export function routeTable(routes: readonly RouteDef[]) {
  const byPath = new Map<string, Compiled>();
  for (const route of routes) {
    if (route.method === 'any') continue; // the catch-all answers unknown routes
    for (const path of route.paths) {
      const entry = byPath.get(path) ?? { path, methods: [], dialect: route.dialect, ...compile(path) };
      entry.methods.push(route.method.toUpperCase());
      byPath.set(path, entry);
    }
  }
  const entries = [...byPath.values()].sort((a, b) => a.rank - b.rank);
  return {
    match(pathname: string): PathMatch | undefined {
      return entries.find((entry) => entry.pattern.test(pathname));
    },
    /** The dialect a request on this path is answered in. */
    dialect(pathname: string): Dialect {
      return this.match(pathname)?.dialect ?? unknownRouteDialect(pathname);
    },
  };
}
