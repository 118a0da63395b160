// Detailed polygons kept small enough for one DynamoDB item (docs/data-model.md, "Detailed
// boundaries"). A GPS-traced boundary of 50,000 vertices is about 1.2-1.7 MB of WKT; DynamoDB
// holds 400 KB an item. Packed, its coordinates are scaled to integers at the polygon's own
// decimals (at most 12, as the API writes them), each stored as the difference from the vertex
// before (neighbouring vertices differ in their last digits only) in a variable-length integer,
// and the whole is deflated: 4-7 bytes a vertex. Packing is lossless: the WKT unpacked is the WKT
// packed, character for character, checked before a packed form is used; a WKT that does not
// round-trip is deflated as text instead.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { formatNumber } from './bounds';

const FORMAT_DELTAS = 1;
const FORMAT_TEXT = 2;
const MAX_DECIMALS = 12;

/** The packed form of a POLYGON or MULTIPOLYGON's WKT (as toWkt writes it). */
export function packWkt(wkt: string): Uint8Array {
  const deltas = packDeltas(wkt);
  const body =
    deltas && unpackDeltas(deltas) === wkt
      ? deltas
      : Buffer.concat([Buffer.from([FORMAT_TEXT]), Buffer.from(wkt, 'utf8')]);
  return new Uint8Array(deflateRawSync(body));
}

/** The WKT a packed form holds. */
export function unpackWkt(packed: Uint8Array): string {
  const body = inflateRawSync(packed);
  return body[0] === FORMAT_TEXT ? body.subarray(1).toString('utf8') : unpackDeltas(body);
}

// --- the delta form: [format, decimals, kind, parts, (rings, (vertices, (dx, dy)*)*)*] --------------

const KINDS = ['POLYGON', 'MULTIPOLYGON'] as const;

function packDeltas(wkt: string): Buffer | undefined {
  const kind = KINDS.findIndex((k) => wkt.startsWith(`${k}(`));
  if (kind < 0) return undefined;
  // Rings are the innermost parenthesised lists; parts close with '))'.
  const parts: string[][] = [];
  for (const part of wkt.slice(KINDS[kind]!.length).matchAll(/\((\([^()]*\)(?:,\([^()]*\))*)\)/g)) {
    parts.push([...part[1]!.matchAll(/\(([^()]*)\)/g)].map((ring) => ring[1]!));
  }
  const decimals = Math.max(0, ...parts.flat().flatMap((ring) => ring.split(/[ ,]/).map(decimalsOf)));
  if (!(decimals <= MAX_DECIMALS)) return undefined;
  const scale = 10 ** decimals;
  const out: number[] = [FORMAT_DELTAS, decimals, kind];
  varint(out, parts.length);
  let [px, py] = [0, 0];
  for (const rings of parts) {
    varint(out, rings.length);
    for (const ring of rings) {
      const vertices = ring.split(',');
      varint(out, vertices.length);
      for (const vertex of vertices) {
        const [x, y, extra] = vertex.split(' ').map((n) => Math.round(Number(n) * scale));
        if (extra !== undefined || !Number.isSafeInteger(x) || !Number.isSafeInteger(y)) return undefined;
        varint(out, zigzag(x! - px));
        varint(out, zigzag(y! - py));
        [px, py] = [x!, y!];
      }
    }
  }
  return Buffer.from(out);
}

function unpackDeltas(body: Uint8Array): string {
  let at = 1;
  const next = () => {
    let value = 0;
    let factor = 1;
    for (;;) {
      const byte = body[at++]!;
      value += (byte & 0x7f) * factor;
      if (byte < 0x80) return value;
      factor *= 128;
    }
  };
  const scale = 10 ** body[at++]!;
  const kind = KINDS[body[at++]!]!;
  let [px, py] = [0, 0];
  const parts: string[] = [];
  for (let p = next(); p > 0; p--) {
    const rings: string[] = [];
    for (let r = next(); r > 0; r--) {
      const vertices: string[] = [];
      for (let v = next(); v > 0; v--) {
        px += unzigzag(next());
        py += unzigzag(next());
        vertices.push(`${formatNumber(px / scale)} ${formatNumber(py / scale)}`);
      }
      rings.push(`(${vertices.join(',')})`);
    }
    parts.push(`(${rings.join(',')})`);
  }
  return kind === 'POLYGON' ? `POLYGON${parts[0]}` : `MULTIPOLYGON(${parts.join(',')})`;
}

/** Digits after the decimal point of a number as JavaScript writes it ("1.25" 2, "1e-7" 7, "12" 0). */
function decimalsOf(text: string): number {
  const [mantissa = '', exponent = '0'] = text.toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

function varint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
}
