// Stack traces in the source's own files and lines, read from the bundle's source map only when an
// error is logged. The functions run without --enable-source-maps (which makes Node read and parse
// every bundle's map at import, 20-80 ms of each cold start: docs/benchmarks.md, cold starts), so
// an error's frames name the minified bundle; this maps them back, once per bundle, on demand.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map<string, SourceMap | null>();

/** The source map next to a bundle (`<file>.map`), parsed once; null when there is none. */
function mapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

/** `at name (file:///…/x.mjs:1:234)` or `at file:///…/x.mjs:1:234`: the location at the end of a frame. */
const LOCATION = /((?:file:\/\/)?\/[^\s()]+\.(?:mjs|js)):(\d+):(\d+)(\)?)$/;

/** A stack with each frame in a bundle that has a source map moved to its source file, line and column. */
export function originalStack(stack: string): string {
  if ((process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled) return stack; // Node maps them itself
  return stack
    .split('\n')
    .map((line) => {
      const found = LOCATION.exec(line);
      if (!found) return line;
      try {
        const [location, path, row, column, closing] = found;
        const file = path!.startsWith('file://') ? fileURLToPath(path!) : path!;
        const entry = mapOf(file)?.findEntry(Number(row) - 1, Number(column) - 1) as
          | { originalSource?: string; originalLine?: number; originalColumn?: number }
          | undefined;
        if (!entry?.originalSource) return line;
        const source = entry.originalSource.replace(/^(\.\.\/)+/, '').replace(/^webpack:\/\/\//, '');
        return `${line.slice(0, line.length - location!.length)}${source}:${entry.originalLine! + 1}:${entry.originalColumn! + 1}${closing}`;
      } catch {
        return line;
      }
    })
    .join('\n');
}
