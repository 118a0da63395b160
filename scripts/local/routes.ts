// The routes of every service as the local gateway needs them: which declared path a request path
// falls on (as API Gateway matches: literal parts before `{param}` before `{proxy+}`), its path
// parameters, the methods declared on it and the function of each, and the dialect its errors
// are answered in.
import type { Dialect } from '../../lib/http/dialects';
import type { RouteDef } from '../../lib/http/route';
import { unknownRouteDialect } from '../../schemas/system';

export interface PathMatch {
  /** The declared path (`/api/rotations/{rotation_uuid}`). */
  path: string;
  methods: string[];
  /** The function (operationId) of each declared method, by upper-case method. */
  functions: Record<string, string>;
  /** The path's parameters, URL-decoded (`{ rotation_uuid: '...' }`; `{proxy+}` as `proxy`). */
  params: Record<string, string>;
  dialect: Dialect;
}

interface Compiled {
  path: string;
  methods: string[];
  functions: Record<string, string>;
  dialect: Dialect;
  pattern: RegExp;
  names: string[];
  /** Sorts literal paths before parameterised ones, and those before greedy ones. */
  rank: number;
}

const compile = (path: string): { pattern: RegExp; names: string[]; rank: number } => {
  const parts = path.split('/').filter(Boolean);
  const names: string[] = [];
  const pattern = parts
    .map((part) => {
      if (part.endsWith('+}')) {
        names.push(part.slice(1, -2));
        return '/(.+)';
      }
      if (part.startsWith('{')) {
        names.push(part.slice(1, -1));
        return '/([^/]+)';
      }
      return `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  const rank = parts.reduce(
    (sum, part, index) => sum + (part.endsWith('+}') ? 1000 : part.startsWith('{') ? 10 : 0) * (parts.length - index),
    0,
  );
  return { pattern: new RegExp(`^${pattern || '/'}$`), names, rank };
};

const decode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

export function routeTable(routes: readonly RouteDef[]) {
  const byPath = new Map<string, Compiled>();
  for (const route of routes) {
    for (const path of route.paths) {
      const entry = byPath.get(path) ?? {
        path,
        methods: [],
        functions: {},
        dialect: route.dialect,
        ...compile(path),
      };
      if (route.method === 'any') entry.functions.ANY = route.operationId;
      else {
        entry.methods.push(route.method.toUpperCase());
        entry.functions[route.method.toUpperCase()] = route.operationId;
      }
      byPath.set(path, entry);
    }
  }
  const entries = [...byPath.values()].sort((a, b) => a.rank - b.rank);
  return {
    match(pathname: string): PathMatch | undefined {
      for (const entry of entries) {
        const found = entry.pattern.exec(pathname);
        if (!found) continue;
        const params = Object.fromEntries(entry.names.map((name, i) => [name, decode(found[i + 1]!)]));
        return { path: entry.path, methods: entry.methods, functions: entry.functions, params, dialect: entry.dialect };
      }
      return undefined;
    },
    /** The dialect a request on this path is answered in. */
    dialect(pathname: string): Dialect {
      const found = this.match(pathname);
      return found?.methods.length ? found.dialect : unknownRouteDialect(pathname);
    },
  };
}
