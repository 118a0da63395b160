// JSON text written in pieces, for what is written as it is serialised (a streamed answer,
// lib/http/reply.ts) or measured without being held whole (the key-value listing's bound).

/** Levels of plain objects written member by member (the key-value listing's objects lie 4 deep). */
const JSON_PIECE_DEPTH = 4;

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * `value` as JSON text in pieces, the same text as `JSON.stringify(value)`: plain objects of the
 * first `depth` levels member by member, an array there element by element (each element, a record
 * of a list, whole), what lies deeper and anything else (a Date, a Map, a value with toJSON) whole.
 * The whole text is never held at once: a list of 50 MB takes its records, not a second copy of
 * them as text.
 */
export function* jsonPieces(value: unknown, depth = JSON_PIECE_DEPTH): Generator<string> {
  const whole =
    depth <= 0 ||
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function';
  if (!whole && Array.isArray(value)) {
    yield '[';
    // an array is a list: each of its records whole (member by member costs 10x the CPU); what
    // JSON.stringify cannot write is null in an array
    for (let i = 0; i < value.length; i++) yield `${i ? ',' : ''}${JSON.stringify(value[i]) ?? 'null'}`;
    yield ']';
    return;
  }
  if (whole || !isPlainObject(value)) {
    // a member JSON.stringify cannot write is never asked for here (left out below)
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  yield '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    // as JSON.stringify: members it cannot write are left out
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(member, depth - 1);
  }
  yield '}';
}
