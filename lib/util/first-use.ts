// Modules that only some requests need (ADR 0008: the geometry kit, the SQS and S3 clients,
// season-shape limits, the readers of boundary and layer files, the events worker's jobs on files)
// are imported on first use, once per container: `onFirstUse` turns the dynamic import of such a
// module into its loader, which hands every caller the same promise.
// Call it with /* @__PURE__ */, so that a function that never uses the loader drops it and the
// build prunes the module's chunk (deploy/esbuild-plugins.cjs, prune-chunks).

/** The loader of a module imported on first use: `load` runs at the first call, once. */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

/**
 * Starts loading a kit the request is known to need, so that its import (reading and compiling a
 * chunk, on the CPU) overlaps the request's first reads (waits on the network) instead of following
 * them. Nothing is thrown here: a failed import surfaces where the request awaits the kit.
 */
export function preload(kit: () => Promise<unknown>): void {
  kit().catch(() => undefined);
}
