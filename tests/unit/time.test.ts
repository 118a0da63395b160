// lib/util/time.ts: the one check of the spec's dates and date-times.
import { describe, expect, it } from 'vitest';
import { isDate, isDateTimeZ } from '../../lib/util/time';
import { calendarDate, dateTimeZ, isoDateTime } from '../../schemas/common';

describe('date-times YYYY-MM-DDTHH:MM:SSZ', () => {
  it('accepts real instants, leap days included', () => {
    expect(isDateTimeZ('2026-11-23T10:00:00Z')).toBe(true);
    expect(isDateTimeZ('2028-02-29T23:59:59Z')).toBe(true);
  });

  it('refuses impossible dates and times instead of rolling them over', () => {
    for (const value of [
      '2026-02-30T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
    ]) {
      expect(isDateTimeZ(value), value).toBe(false);
    }
  });

  it('refuses other forms', () => {
    for (const value of [
      '2026-11-23 10:00:00',
      '2026-11-23T10:00:00',
      '2026-11-23T10:00:00.000Z',
      '2026-11-23T10:00:00+00:00',
      20261123,
      null,
    ]) {
      expect(isDateTimeZ(value), String(value)).toBe(false);
    }
  });
});

describe('dates', () => {
  it('checks the form asked for and the calendar', () => {
    expect(isDate('2026-02-28')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026/02/28', 'YYYY/MM/DD')).toBe(true);
    expect(isDate('2026-02-28', 'YYYY/MM/DD')).toBe(false);
  });
});

describe("the schemas' date validators (schemas/common.ts), which every area uses", () => {
  const cases = {
    dateTimeZ: {
      schema: dateTimeZ(),
      ok: ['2024-02-29T00:00:00Z', '2000-02-29T12:00:00Z'],
      bad: ['2025-02-30T00:00:00Z', '2025-04-31T00:00:00Z', '2025-02-29T00:00:00Z', '1900-02-29T00:00:00Z'],
    },
    calendarDate: {
      schema: calendarDate(),
      ok: ['2024-02-29', '2025-04-30'],
      bad: ['2025-02-30', '2025-04-31', '2025-02-29', '2025-02-31'],
    },
    isoDateTime: {
      schema: isoDateTime(),
      ok: ['2024-02-29T10:00:00Z', '2024-02-29T10:00:00.250-03:00'],
      bad: ['2025-02-30T10:00:00Z', '2025-04-31T10:00:00+03:00', '2025-02-29T10:00:00Z', '2025-02-28'],
    },
  };
  for (const [name, { schema, ok, bad }] of Object.entries(cases)) {
    it(`${name}: February 30, April 31 and a leap day of a common year are refused; real leap days pass`, () => {
      for (const value of ok) expect(schema.safeParse(value).success, value).toBe(true);
      for (const value of bad) expect(schema.safeParse(value).success, value).toBe(false);
    });
  }
});
