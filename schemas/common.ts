// Schema helpers shared by every area.
import * as z from 'zod/mini';
import { characters } from '../lib/util/text';
import { type DateFormat, isDate, isDateTimeZ } from '../lib/util/time';

/** An integer sent as a JSON number or as text (query strings, forms). */
export const integer = () =>
  z.union([
    z.number().check(z.int()),
    z.pipe(z.string().check(z.trim(), z.regex(/^-?\d+$/, 'expected an integer')), z.transform(Number)),
  ]);

export const positiveInteger = () => z.pipe(integer(), z.number().check(z.int(), z.positive()));

/** A boolean sent as JSON or as text; "true"/"1" and "false"/"0". */
export const booleanLike = () =>
  z.union([
    z.boolean(),
    z.pipe(
      z.string().check(
        z.trim(),
        z.toLowerCase(),
        z.refine((v) => ['true', 'false', '1', '0'].includes(v), 'expected true or false'),
      ),
      z.transform((v) => v === 'true' || v === '1'),
    ),
  ]);

/** `{code: 0, data}`: success body of the internal API. */
export const okData = <T extends z.ZodMiniType>(data: T) => z.object({ code: z.literal(0), data });

/** YYYY-MM-DDTHH:MM:SSZ naming a real instant (lib/util/time.ts). */
export const dateTimeZ = () =>
  z.string().check(z.refine(isDateTimeZ, 'expected a real date-time YYYY-MM-DDTHH:MM:SSZ'));

/** An ISO 8601 date-time with a zone (Z or an offset), naming a real instant (zod's own check). */
export const isoDateTime = () => z.iso.datetime({ offset: true });

/** A real calendar date in the given form. */
export const calendarDate = (format: DateFormat = 'YYYY-MM-DD') =>
  z.string().check(z.refine((v) => isDate(v, format), `expected a real date ${format}`));

/**
 * Bounds of a free-form JSON object a record keeps as a DynamoDB map (docs/decisions.md, Bounds):
 * DynamoDB refuses map keys that are empty and values nested more than 32 levels, so the API
 * refuses them first, with the area's 400.
 */
export const JSON_OBJECT_LIMITS = { DEPTH: 16, KEY_CHARS: 200 } as const;

/** Why a JSON value breaks JSON_OBJECT_LIMITS, or undefined. Stops at the first problem (and at the depth bound). */
export function jsonShapeProblem(value: unknown, path = '', depth = 1): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > JSON_OBJECT_LIMITS.DEPTH)
    return `${path || 'the object'} nests deeper than ${JSON_OBJECT_LIMITS.DEPTH} levels`;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (!Array.isArray(value) && (key.length === 0 || key.length > JSON_OBJECT_LIMITS.KEY_CHARS)) {
      return `${path || 'the object'} has a key of ${key.length} characters (1 to ${JSON_OBJECT_LIMITS.KEY_CHARS})`;
    }
    const problem = jsonShapeProblem(child, path ? `${path}.${key}` : key, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** A JSON object within JSON_OBJECT_LIMITS. */
export const jsonObject = () =>
  z.record(z.string(), z.unknown()).check(
    z.superRefine((value, ctx) => {
      const problem = jsonShapeProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );

/**
 * A text of `min` to `max` characters, counted as code points (an emoji is one), as JSON Schema's
 * maxLength counts them; `trim` removes surrounding blanks first.
 */
export const text = (max: number, min = 0, options: { trim?: boolean } = {}) =>
  (options.trim ? z.string().check(z.trim()) : z.string()).check(
    z.refine((v) => characters(v) <= max, `at most ${max} characters`),
    z.refine((v) => characters(v) >= min, `at least ${min} characters`),
    z.meta({ maxLength: max, ...(min ? { minLength: min } : {}) }),
  );

/**
 * Items of a batch that processes each item on its own (inputs, rotations): each raw item parsed
 * by `schema` and mapped, or kept with the reason it is malformed.
 */
export function parseEach<S extends z.ZodMiniType, T>(
  schema: S,
  items: unknown[],
  map: (value: z.output<S>) => T,
): Array<{ input: T } | { malformed: string; raw: unknown }> {
  return items.map((raw) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { input: map(parsed.data) };
    return { malformed: parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; '), raw };
  });
}

/** Ids or uuids in one comma-separated filter (docs/decisions.md, Bounds). */
export const COMMA_LIST_MAX = 100;

/** A comma-separated query value, each part parsed by `item`. */
export const commaList = <T extends z.ZodMiniType<unknown, string>>(item: T) =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ),
    z.array(item).check(z.minLength(1), z.maxLength(COMMA_LIST_MAX)),
  );
