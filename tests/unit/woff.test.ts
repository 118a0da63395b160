// lib/work-orders/woff.ts: the work order's WOFF fonts unwrapped to the sfnt fonts they hold, read
// back by fontkit (the reader pdfkit uses) as the same font: every table byte for byte, the same
// glyphs for the same characters, the same outlines.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create as openFont } from 'fontkit';
import { describe, expect, it } from 'vitest';
import { sfntOfWoff } from '../../lib/work-orders/woff';

const require = createRequire(import.meta.url);
const woffOf = (name: string) => readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${name}.woff`));

describe('a WOFF font unwrapped', () => {
  for (const name of ['latin-400-normal', 'latin-700-normal', 'cyrillic-400-normal', 'greek-400-normal']) {
    it(`is the font the WOFF holds (${name})`, () => {
      const woff = woffOf(name);
      const sfnt = sfntOfWoff(woff);
      const [a, b] = [openFont(woff) as any, openFont(sfnt) as any];
      expect(b.type).toBe('TTF');
      expect(b.numGlyphs).toBe(a.numGlyphs);
      expect(b.postscriptName).toBe(a.postscriptName);
      expect(Object.keys(b.directory.tables).sort()).toEqual(Object.keys(a.directory.tables).sort());
      // each table as fontkit reads it from the WOFF (its own inflate) is the sfnt's, byte for byte
      for (const [tag, entry] of Object.entries(b.directory.tables) as Array<
        [string, { offset: number; length: number }]
      >) {
        const stored = a.directory.tables[tag] as { offset: number; compLength: number; length: number };
        const fromWoff =
          stored.compLength < stored.length
            ? Buffer.from(a._getTableStream(tag).buffer) // inflated by fontkit
            : woff.subarray(stored.offset, stored.offset + stored.length);
        expect(Buffer.compare(sfnt.subarray(entry.offset, entry.offset + entry.length), fromWoff), tag).toBe(0);
      }
      const text = 'Ñandú €25 °C — Ελλάδα Москва';
      const [ga, gb] = [a.layout(text).glyphs, b.layout(text).glyphs];
      expect(gb.map((g: any) => g.id)).toEqual(ga.map((g: any) => g.id));
      expect(gb.map((g: any) => g.path.toSVG())).toEqual(ga.map((g: any) => g.path.toSVG()));
      // tables start on 4-byte boundaries, as sfnt requires
      for (const table of Object.values(b.directory.tables) as Array<{ offset: number }>)
        expect(table.offset % 4).toBe(0);
    });
  }

  it('refuses what is not a WOFF 1.0 font, and a table that lies outside the file', () => {
    expect(() => sfntOfWoff(new Uint8Array(100))).toThrow('not a WOFF 1.0 font');
    const woff = Buffer.from(woffOf('latin-400-normal'));
    woff.writeUInt32BE(woff.length + 10, 44 + 4); // the first table's offset, past the end
    expect(() => sfntOfWoff(woff)).toThrow('outside the file');
  });
});
