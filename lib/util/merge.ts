// Lists read from several partitions at once (a farm's records and a shared field's, lib/authz/
// by-farm.ts): each source already in the list's order, merged in that order, each read only as far
// as the merge is taken.
import { mapLimit } from './map-limit';

/**
 * The items of `sources`, each source in `order` already, merged in `order` (ties to the earlier
 * source), each with the index of its source. A source's next item is read when the one before it
 * is taken; the sources' first items are read `opening` at a time (all at once by default). Ending
 * the merge early (a `return`, a `break` of its loop) ends every source.
 */
export async function* mergeOrdered<T>(
  sources: ReadonlyArray<AsyncIterable<T>>,
  order: (a: T, b: T) => number,
  opening = sources.length,
): AsyncGenerator<{ item: T; index: number }> {
  const heads = await mapLimit(sources, opening, async (source) => {
    const iterator = source[Symbol.asyncIterator]();
    return { iterator, next: await iterator.next() };
  });
  try {
    for (;;) {
      let first = -1;
      for (const [index, head] of heads.entries())
        if (!head.next.done && (first < 0 || order(head.next.value, heads[first]!.next.value as T) < 0)) first = index;
      if (first < 0) return;
      const head = heads[first]!;
      yield { item: head.next.value as T, index: first };
      head.next = await head.iterator.next();
    }
  } finally {
    // stop the sources' reads (an iterator left open reads nothing more)
    await Promise.all(heads.map((head) => head.iterator.return?.()));
  }
}

/**
 * How many records each of `sources` reads first for a page of `size` merged from them: `spread`
 * times its even share (twice by default: a page drawn mostly from a few sources needs few second
 * reads; once where a source's later reads grow, queryItems' `growing`), at least `floor`, at most
 * the page.
 */
export const pageShare = (size: number, sources: number, floor: number, spread = 2): number =>
  Math.min(size, Math.max(Math.ceil((spread * size) / sources), floor));
