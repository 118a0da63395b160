// lib/sensors/codec.ts and the day partitioning of lib/sensors/timeseries.ts.
import { describe, expect, it } from 'vitest';
import { decodePoints, encodePoints, mergePoints, type Point } from '../../lib/sensors/codec';
import { POINT_METADATA_MAX_BYTES } from '../../lib/sensors/model';
import { MAX_POINTS_PER_ITEM, partition } from '../../lib/sensors/timeseries';
import { parseValues } from '../../lib/sensors/values';

const day = '2026-03-01';
const start = Date.parse(`${day}T00:00:00Z`) / 1000;

describe('chunk codec', () => {
  it('round-trips timestamps, full-precision values and metadata', () => {
    const points: Point[] = Array.from({ length: 5000 }, (_, i) => ({
      t: start + i * 7 + (i % 3),
      v: Math.sin(i) * 1e6 + Math.random(),
    }));
    points[10]!.m = { quality: 'bad', flags: [1, 2] };
    const { data, meta } = encodePoints(points);
    expect(decodePoints(data, meta)).toEqual(points);
  });

  it('packs regular series into about 8 bytes a value', () => {
    const points: Point[] = Array.from({ length: 10_000 }, (_, i) => ({
      t: start + i * 60,
      v: 20 + Math.random() * 5,
    }));
    const { data, meta } = encodePoints(points);
    expect(meta).toBeUndefined();
    expect(data.length / points.length).toBeLessThan(8.5);
  });

  it('keeps one value per timestamp: the last written wins', () => {
    const merged = mergePoints(
      [
        { t: 1, v: 1 },
        { t: 2, v: 2 },
      ],
      [
        { t: 2, v: 20 },
        { t: 0, v: 0 },
        { t: 2, v: 21 },
      ],
    );
    expect(merged).toEqual([
      { t: 0, v: 0 },
      { t: 1, v: 1 },
      { t: 2, v: 21 },
    ]);
  });
});

describe('day partitioning', () => {
  it('keeps an ordinary day in one part and splits a dense one into equal time slices', () => {
    const sparse = Array.from({ length: 1440 }, (_, i) => ({ t: start + i * 60, v: i }));
    expect(partition(day, sparse)).toHaveLength(1);
    const dense = Array.from({ length: MAX_POINTS_PER_ITEM + 1000 }, (_, i) => ({ t: start + i * 2, v: i }));
    const parts = partition(day, dense);
    expect(parts).toHaveLength(2);
    expect(parts.flat()).toEqual(dense);
    expect(parts.every((p) => p.length <= MAX_POINTS_PER_ITEM)).toBe(true);
  });

  it('splits a day by bytes too: every part of values with large metadata fits in a DynamoDB item', () => {
    const note = 'x'.repeat(POINT_METADATA_MAX_BYTES - 20);
    const heavy = Array.from({ length: 1000 }, (_, i) => ({ t: start + i * 60, v: i, m: { note } }));
    const parts = partition(day, heavy);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flat()).toEqual(heavy);
    for (const part of parts) {
      const { data, meta } = encodePoints(part);
      expect(data.length + Buffer.byteLength(meta ?? '')).toBeLessThan(400 * 1024);
    }
    // a day that needs more than MAX_PARTS parts is refused before anything is written
    const tooMuch = Array.from({ length: 86_400 / 20 }, (_, i) => ({ t: start + i * 20, v: i, m: { note } }));
    expect(() => partition(day, tooMuch)).toThrow(/per variable per day/);
  });

  it('refuses a value whose metadata is over the bound', () => {
    const uuid = '6f1c1a4e-0b7a-4c43-9d57-1f1ad1f0c001';
    const body = (size: number) => ({
      data: [
        { variable_uuid: uuid, values: [1], timestamps: ['2026-03-01T00:00:00Z'], metadata: [{ n: 'x'.repeat(size) }] },
      ],
    });
    expect(parseValues(body(100)).total).toBe(1);
    expect(() => parseValues(body(POINT_METADATA_MAX_BYTES))).toThrow(/larger than 1024 bytes/);
  });
});
