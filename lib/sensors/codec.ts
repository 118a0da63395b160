// Binary encoding of a chunk of sensor values (docs/sensors-storage.md). A chunk holds the values
// of one variable in one time span, sorted by time, one value per timestamp:
//
//   uint8 format (1) | uint32 count | varint first timestamp (s) | varint deltas (s) ... |
//   float64 LE values ...
//
// deflated (zlib). Timestamps are whole seconds (the API's YYYY-MM-DDTHH:MM:SSZ); deltas of
// regular series take one byte and deflate to almost nothing; values keep full float64 precision.
// Metadata objects, usually empty, are stored apart as JSON of [index, object] pairs.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface Point {
  /** Unix seconds */
  t: number;
  v: number;
  /** Per-value metadata; absent when empty. */
  m?: Record<string, unknown>;
}

const FORMAT = 1;

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(buffer: Buffer, offset: number): [number, number] {
  let value = 0;
  let factor = 1;
  let position = offset;
  for (;;) {
    const byte = buffer[position++]!;
    value += (byte & 0x7f) * factor;
    if (byte < 0x80) return [value, position];
    factor *= 0x80;
  }
}

/** Points must be sorted by time with unique timestamps. */
export function encodePoints(points: Point[]): { data: Buffer; meta?: string } {
  const head: number[] = [FORMAT, 0, 0, 0, 0];
  const count = points.length;
  head[1] = count & 0xff;
  head[2] = (count >>> 8) & 0xff;
  head[3] = (count >>> 16) & 0xff;
  head[4] = (count >>> 24) & 0xff;
  let previous = 0;
  points.forEach((point, index) => {
    writeVarint(head, index === 0 ? point.t : point.t - previous);
    previous = point.t;
  });
  const values = Buffer.allocUnsafe(count * 8);
  points.forEach((point, index) => {
    values.writeDoubleLE(point.v, index * 8);
  });
  const data = deflateRawSync(Buffer.concat([Buffer.from(head), values]), { level: 6 });
  const metadata = points.flatMap((point, index) => (point.m && Object.keys(point.m).length ? [[index, point.m]] : []));
  return metadata.length ? { data, meta: JSON.stringify(metadata) } : { data };
}

export function decodePoints(data: Uint8Array, meta?: string): Point[] {
  const buffer = inflateRawSync(Buffer.from(data));
  if (buffer[0] !== FORMAT) throw new Error(`unknown chunk format ${buffer[0]}`);
  const count = buffer.readUInt32LE(1);
  const points: Point[] = new Array(count);
  let offset = 5;
  let t = 0;
  for (let i = 0; i < count; i++) {
    const [delta, next] = readVarint(buffer, offset);
    offset = next;
    t = i === 0 ? delta : t + delta;
    points[i] = { t, v: 0 };
  }
  for (let i = 0; i < count; i++) points[i]!.v = buffer.readDoubleLE(offset + i * 8);
  if (meta) {
    for (const [index, value] of JSON.parse(meta) as Array<[number, Record<string, unknown>]>) {
      if (points[index]) points[index]!.m = value;
    }
  }
  return points;
}

/**
 * Merges new points into existing ones: one point per timestamp, sorted; for a repeated timestamp
 * the last write wins (new points over existing, later entries of `incoming` over earlier ones).
 */
export function mergePoints(existing: Point[], incoming: Point[]): Point[] {
  const byTime = new Map<number, Point>();
  for (const point of existing) byTime.set(point.t, point);
  for (const point of incoming) byTime.set(point.t, point);
  return [...byTime.values()].sort((a, b) => a.t - b.t);
}
