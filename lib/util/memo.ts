// Answers kept by key for as long as their keeper lives (one batch, one request): each key is read
// once, and concurrent callers share the one read in flight.

/** A keeper: `at(key, read)` answers the kept answer of `key`, or keeps what `read` answers. */
export function keyed<K, V>(): (key: K, read: () => Promise<V>) => Promise<V> {
  const kept = new Map<K, Promise<V>>();
  return (key, read) => {
    let found = kept.get(key);
    if (!found) kept.set(key, (found = read()));
    return found;
  };
}

/** `read`, each key read once. */
export function memo<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const at = keyed<K, V>();
  return (key) => at(key, () => read(key));
}
