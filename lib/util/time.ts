/** A date-time as the spec writes it: YYYY-MM-DDTHH:MM:SSZ (UTC, whole seconds). */
export const isoSeconds = (date: Date | number | string = new Date()): string => `${new Date(date).toISOString().slice(0, 19)}Z`;
