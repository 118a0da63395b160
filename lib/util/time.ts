// Dates and date-times as the spec writes them, checked strictly: the form and a real calendar
// date (2026-02-30 and 25:00:00 are refused, never rolled over to the next day or month).

/** A date-time as the spec writes it: YYYY-MM-DDTHH:MM:SSZ (UTC, whole seconds). */
export const isoSeconds = (date: Date | number | string = new Date()): string =>
  `${new Date(date).toISOString().slice(0, 19)}Z`;

/** YYYY-MM-DDTHH:MM:SS.mmmZ, for ordering within a second. */
export const isoMillis = (date: Date | number = new Date()): string => new Date(date).toISOString();

const DATE_TIME_Z = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const DATE_PARTS: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^(\d{4})-(\d{2})-(\d{2})$/,
  'YYYY/MM/DD': /^(\d{4})\/(\d{2})\/(\d{2})$/,
};
export type DateFormat = 'YYYY-MM-DD' | 'YYYY/MM/DD';

function realDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): boolean {
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** YYYY-MM-DDTHH:MM:SSZ naming a real instant. */
export function isDateTimeZ(value: unknown): value is string {
  const m = typeof value === 'string' ? DATE_TIME_Z.exec(value) : null;
  return (
    Boolean(m) && realDate(Number(m![1]), Number(m![2]), Number(m![3]), Number(m![4]), Number(m![5]), Number(m![6]))
  );
}

/** A calendar date in the given form. */
export function isDate(value: unknown, format: DateFormat = 'YYYY-MM-DD'): value is string {
  const m = typeof value === 'string' ? DATE_PARTS[format].exec(value) : null;
  return Boolean(m) && realDate(Number(m![1]), Number(m![2]), Number(m![3]));
}
