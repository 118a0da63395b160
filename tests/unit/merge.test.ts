// lib/util/merge.ts: sources in the list's order merged in that order, each read only as far as the
// merge is taken, every source ended when the merge ends early.
import { describe, expect, it } from 'vitest';
import { mergeOrdered, pageShare } from '../../lib/util/merge';

/** A source of `items` that records how many it has given and whether it was ended. */
function source(items: number[]) {
  const seen = { given: 0, ended: false };
  async function* read() {
    try {
      for (const item of items) {
        seen.given++;
        yield item;
      }
    } finally {
      seen.ended = true;
    }
  }
  return { iterable: read(), seen };
}

const ascending = (a: number, b: number) => a - b;

describe('mergeOrdered', () => {
  it('merges in order, ties to the earlier source, each item with its source', async () => {
    const a = source([1, 3, 3, 7]);
    const b = source([2, 3, 8]);
    const out: Array<[number, number]> = [];
    for await (const { item, index } of mergeOrdered([a.iterable, b.iterable], ascending)) out.push([item, index]);
    expect(out).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
      [3, 0],
      [3, 1],
      [7, 0],
      [8, 1],
    ]);
  });

  it('reads a source only as far as the merge is taken, and ends every source when it ends early', async () => {
    const a = source([1, 2, 3, 4, 5]);
    const b = source([10, 20, 30]);
    const taken: number[] = [];
    for await (const { item } of mergeOrdered([a.iterable, b.iterable], ascending, 1)) {
      taken.push(item);
      if (taken.length === 2) break;
    }
    expect(taken).toEqual([1, 2]);
    // a: the two taken (its next is read when the merge goes on, which a break never asks); b: its head
    expect([a.seen.given, b.seen.given]).toEqual([2, 1]);
    expect([a.seen.ended, b.seen.ended]).toEqual([true, true]);
  });

  it('ends at once with no source or only empty ones', async () => {
    const out: number[] = [];
    for await (const { item } of mergeOrdered([], ascending)) out.push(item);
    for await (const { item } of mergeOrdered([source([]).iterable], ascending)) out.push(item);
    expect(out).toEqual([]);
  });
});

describe('pageShare', () => {
  it('is twice the even share, at least the floor, at most the page', () => {
    expect(pageShare(50, 10, 10)).toBe(10);
    expect(pageShare(50, 4, 10)).toBe(25);
    expect(pageShare(50, 1, 10)).toBe(50);
    expect(pageShare(50, 100, 25)).toBe(25);
    expect(pageShare(10, 100, 25)).toBe(10);
  });

  it('is the even share where the sources read on in growing pages (spread 1)', () => {
    expect(pageShare(102, 10, 10, 1)).toBe(11);
    expect(pageShare(50, 10, 10, 1)).toBe(10);
    expect(pageShare(50, 1, 10, 1)).toBe(50);
  });
});
