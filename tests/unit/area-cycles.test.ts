// No circle between the areas of lib/ (an area: a folder of lib/, or a module at its top), not even
// one closed by an `import type` or an `import()`: a dependency goes one way, from an area to those
// below it (authorisation and the platform's records at the bottom, the workers at the top).
// Imports are read by TypeScript's own scanner (ts.preProcessFile), which sees every import and
// export, type-only ones and dynamic import() included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const lib = join(import.meta.dirname, '..', '..', 'lib');

/** Every source file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(c|m)?(t|j)s$/.test(name) ? [path] : [];
  });
}

const areaOf = (file: string) =>
  relative(lib, file)
    .split(sep)[0]!
    .replace(/\.[^.]+$/, '');

/** Area -> the areas it imports, each with one import that shows it. */
function areaGraph(files: Array<{ path: string; text: string }>): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { path, text } of files) {
    const from = areaOf(path);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(path), fileName);
      if (!target.startsWith(lib + sep)) continue;
      const to = areaOf(target);
      if (to !== from && !graph.get(from)!.has(to)) graph.get(from)!.set(to, `${relative(lib, path)} -> ${fileName}`);
    }
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one node (Tarjan). */
function circles(graph: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** A circle with the imports that close it, for the failure's message. */
const explain = (graph: Map<string, Map<string, string>>, circle: string[]) =>
  circle.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter(([to]) => circle.includes(to)).map(([to, why]) => `${from} -> ${to}: ${why}`),
  );

describe('the areas of lib/', () => {
  it('import each other in one direction only, type imports and import() included', () => {
    const files = sources(lib).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    const graph = areaGraph(files);
    expect(graph.size).toBeGreaterThan(20);
    expect(circles(graph).map((circle) => explain(graph, circle))).toEqual([]);
  });

  it('would see a circle closed by a type import, an export or an import()', () => {
    for (const closing of [
      "import type { A } from '../a/model';",
      "export { a } from '../a/model';",
      "const load = () => import('../a/model');",
    ]) {
      const graph = areaGraph([
        { path: join(lib, 'a', 'model.ts'), text: "import { b } from '../b/service';" },
        { path: join(lib, 'b', 'service.ts'), text: closing },
        { path: join(lib, 'c', 'service.ts'), text: "import { a } from '../a/model';" },
      ]);
      expect(circles(graph), closing).toEqual([['a', 'b']]);
    }
  });
});
