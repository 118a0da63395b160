// Positions in a user's change feed. A change's `seq` sorts by the time the worker wrote it (9
// base-36 digits of milliseconds), then by its place in the worker's batch (3 base-36 digits, so
// one record's changes keep the stream's order), then 4 random characters. A cursor is a seq made
// opaque; a position that names no change (the end of what a page read, "now", the start of the
// retention) is the time's digits followed by `zzz~~~~`: after every change of that millisecond.

import { randomBytes } from 'node:crypto';

const TIME_DIGITS = 9;
const SEQ = /^[0-9a-z]{12}[0-9A-Za-z_~-]{4}$/;
const PREFIX = 'c1.';

const time36 = (ms: number) => Math.max(0, Math.floor(ms)).toString(36).padStart(TIME_DIGITS, '0');

/** The seq of the `index`th change a worker writes at `ms`. */
export const newSeq = (ms: number, index: number): string =>
  `${time36(ms)}${Math.min(index, 36 ** 3 - 1)
    .toString(36)
    .padStart(3, '0')}${randomBytes(3).toString('base64url')}`;

/** The position after every change written at or before `ms`. */
export const positionAt = (ms: number): string => `${time36(ms)}zzz~~~~`;

/** The time (ms) of a seq or position. */
export const seqTime = (seq: string): number => Number.parseInt(seq.slice(0, TIME_DIGITS), 36);

export const encodeCursor = (seq: string): string => Buffer.from(`${PREFIX}${seq}`).toString('base64url');

/** The seq a cursor names; undefined when it is not a cursor of the feed. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX)) return undefined;
  const seq = text.slice(PREFIX.length);
  return SEQ.test(seq) ? seq : undefined;
}
