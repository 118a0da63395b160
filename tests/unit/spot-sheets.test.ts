// The rules of spot sheet columns and cells (lib/spots/sheets.ts), without storage: the header of a
// variable, numbers read from cells and written to csv. The stack tests import and export files.
import { describe, expect, it } from 'vitest';
import { cellNumber, headerOf, parseHeader, plainDecimal } from '../../lib/spots/sheets';

const read = (header: string) => {
  const { name, unit } = parseHeader(header);
  return [name, unit?.id];
};

describe('spot sheet headers', () => {
  it('reads "name [unit]" as exported, [] for no unit, and an unknown unit as none', () => {
    expect(read('pH [pH]')).toEqual(['pH', 8]);
    expect(read(' Fósforo [ppm] ')).toEqual(['Fósforo', 2]);
    expect(read('Notas []')).toEqual(['Notas', 0]);
    expect(read('Depth [furlongs]')).toEqual(['Depth', undefined]);
  });

  it('reads "name (unit)" only when the parentheses hold a known unit; a bare name is unitless', () => {
    expect(read('K (ppm)')).toEqual(['K', 2]);
    expect(read('ph (agua)')).toEqual(['ph (agua)', 0]);
    expect(read('Humedad')).toEqual(['Humedad', 0]);
  });

  it('reads names holding line breaks', () => {
    expect(read('K\rtotal [ppm]')).toEqual(['K\rtotal', 2]);
    expect(read('línea 1\nlínea 2 (ppm)')).toEqual(['línea 1\nlínea 2', 2]);
  });

  it('writes the unit in brackets, always, so that any name reads back', () => {
    for (const [name, unit] of [
      ['ph (agua)', 8],
      ['K\rtotal', 2],
      ['x [y]', 0],
    ] as const)
      expect(read(headerOf(name, unit))).toEqual([name, unit]);
  });
});

describe('spot sheet cells', () => {
  it('reads numbers, and text with a decimal comma or point and an optional exponent', () => {
    expect([7, ' 12,5 ', '-0.25', '1e3', '1,5E-2', '1 000'].map(cellNumber)).toEqual([
      7, 12.5, -0.25, 1000, 0.015, 1000,
    ]);
    expect(['', 'abc', '1,2,3', '--1', null, Number.NaN, Number.POSITIVE_INFINITY].map(cellNumber)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('writes every digit of a number in plain decimal notation', () => {
    expect([0.000000123456789, 123456789012345680000, 1 / 3, -2.5e-7, 42].map(plainDecimal)).toEqual([
      '0.000000123456789',
      '123456789012345680000',
      '0.3333333333333333',
      '-0.00000025',
      '42',
    ]);
  });
});
