// Schema helpers shared by every area.
import { z } from 'zod';
import { isDate, isDateTimeZ, type DateFormat } from '../lib/util/time';

/** An integer sent as a JSON number or as text (query strings, forms). */
export const integer = () =>
  z.union([z.number().int(), z.string().trim().regex(/^-?\d+$/, 'expected an integer').transform(Number)]);

export const positiveInteger = () => integer().pipe(z.number().int().positive());

/** A boolean sent as JSON or as text; "true"/"1" and "false"/"0". */
export const booleanLike = () =>
  z.union([
    z.boolean(),
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => ['true', 'false', '1', '0'].includes(v), 'expected true or false')
      .transform((v) => v === 'true' || v === '1'),
  ]);

/** `{code: 0, data}`: success body of the internal API. */
export const okData = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), data });


/** YYYY-MM-DDTHH:MM:SSZ naming a real instant (lib/util/time.ts). */
export const dateTimeZ = () => z.string().refine(isDateTimeZ, 'expected a real date-time YYYY-MM-DDTHH:MM:SSZ');

/** A real calendar date in the given form. */
export const calendarDate = (format: DateFormat = 'YYYY-MM-DD') => z.string().refine((v) => isDate(v, format), `expected a real date ${format}`);
