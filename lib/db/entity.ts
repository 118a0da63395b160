// An entity defined once: each property names its item attribute and its type, and the
// definition gives the TypeScript type, the item -> entity reading and the entity -> item writing.
// Keys are not part of it (lib/db/keys.ts builds them); the wire shape stays explicit in schemas/.
//
//   export const Paddock = entity('paddock', { id: num('paddock_id'), name: str('name'), ... });
//   export type Paddock = EntityOf<typeof Paddock>;
//   Paddock.fromItem(item); Paddock.toItem(paddock)
import type { Item } from './table';

interface Attribute<T> {
  attr: string;
  read(value: unknown): T;
  /** How the value is written (as it is, when absent). */
  write?(value: T): unknown;
  /** Reads from the whole item (attributes that fall back to others, or span several). */
  readItem?(item: Item): T;
  /** Writes several attributes at once (a value embedded in the item). */
  spread?(value: T): Item;
}

const attribute =
  <T>(read: (value: unknown) => T) =>
  (attr: string): Attribute<T> => ({ attr, read });

/** A text attribute. */
export const str = attribute((v) => String(v));
/** A number attribute. */
export const num = attribute((v) => Number(v));
/** A boolean attribute (absent reads false). */
export const bool = attribute((v) => v === true);
/** A text attribute that defaults when absent. */
export const strOr = (attr: string, fallback: string): Attribute<string> => ({
  attr,
  read: (v) => (v === undefined || v === null ? fallback : String(v)),
});
/** A number attribute that defaults when absent (counters, versions). */
export const numOr = (attr: string, fallback: number): Attribute<number> => ({
  attr,
  read: (v) => (v === undefined || v === null ? fallback : Number(v)),
});
/** An attribute that may be null (absent reads null). */
export const nullable = <T>(inner: Attribute<T>): Attribute<T | null> => ({
  attr: inner.attr,
  read: (v) => (v === undefined || v === null ? null : inner.read(v)),
});
/** An attribute read and written by the given functions (a list of objects with their own attribute names, a fallback to another attribute). */
export const mapped = <T>(
  attr: string,
  read: (value: unknown, item: Item) => T,
  write: (value: T) => unknown,
): Attribute<T> => ({
  attr,
  read: (v) => read(v, {}),
  readItem: (item) => read(item[attr], item),
  write,
});
/** A value held in several attributes of the item (a field's shape): read from the whole item, written spread into it. */
export const embedded = <T>(read: (item: Item) => T, write: (value: T) => Item): Attribute<T> => ({
  attr: '',
  read: () => read({}),
  readItem: read,
  spread: write,
});
/** An attribute kept as it is (a JSON value, a list); `T` is the caller's promise about it. */
export const as = <T>(attr: string, fallback?: T): Attribute<T> => ({
  attr,
  read: (v) => (v === undefined && fallback !== undefined ? fallback : (v as T)),
});

type Shape = Record<string, Attribute<unknown>>;
export type EntityOf<E> =
  E extends Entity<infer S> ? { [K in keyof S]: S[K] extends Attribute<infer T> ? T : never } : never;

export interface Entity<S extends Shape> {
  /** The item's `kind` attribute. */
  kind: string;
  fromItem(item: Item): { [K in keyof S]: S[K] extends Attribute<infer T> ? T : never };
  toItem(value: { [K in keyof S]: S[K] extends Attribute<infer T> ? T : never }): Item;
}

/**
 * `derived` adds attributes computed from the entity when it is written (an attribute an index
 * reads, say); they are not read back.
 */
export function entity<S extends Shape>(
  kind: string,
  shape: S,
  options: { derived?: (value: EntityOf<Entity<S>>) => Item } = {},
): Entity<S> {
  const properties = Object.entries(shape);
  return {
    kind,
    fromItem: (item) =>
      Object.fromEntries(
        properties.map(([name, a]) => [name, a.readItem ? a.readItem(item) : a.read(item[a.attr])]),
      ) as ReturnType<Entity<S>['fromItem']>,
    toItem: (value) => {
      const item: Item = { kind };
      for (const [name, a] of properties) {
        const v = (value as Record<string, unknown>)[name];
        if (a.spread) Object.assign(item, a.spread(v));
        else item[a.attr] = a.write ? a.write(v) : v;
      }
      return { ...item, ...options.derived?.(value as EntityOf<Entity<S>>) };
    },
  };
}
