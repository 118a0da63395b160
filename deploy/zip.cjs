'use strict';
// Zip archives deflated by Node's own zlib: fflate writes the archive (headers, CRCs, the central
// directory) and zlib compresses each entry, natively. fflate's own deflate is JavaScript: the 143
// functions' contents (209 MB) took 9.9 core-seconds at its level 9 and come out 5% larger than
// zlib's level 6 does in 6.4 (docs/benchmarks.md has the packaging's figures). Used by the
// packaging (deploy/build.cjs) and the tests' hostile files (tests/helpers/hostile-files.ts).
// CommonJS: osls loads the packaging.
const zlib = require('node:zlib');
const { Zip, ZipPassThrough } = require('fflate');

/** A zip entry deflated by zlib: the whole entry at once, or each chunk pushed as it comes (`streamed`). */
class ZlibEntry extends ZipPassThrough {
  constructor(name, { level, mtime, streamed = false }) {
    super(name);
    this.compression = 8;
    if (mtime) this.mtime = mtime;
    this.level = level;
    this.streamed = streamed;
    this.parts = [];
  }

  process(chunk, final) {
    if (!this.streamed) {
      this.parts.push(chunk);
      if (final) this.ondata(null, zlib.deflateRawSync(Buffer.concat(this.parts), { level: this.level }), true);
      return;
    }
    // each chunk a run of blocks ending on a byte boundary without the final bit (a full flush);
    // the last one closes the stream: one valid deflate stream, never held whole
    const flush = final ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH;
    this.ondata(null, zlib.deflateRawSync(chunk, { level: this.level, finishFlush: flush }), final);
  }
}

/**
 * A zip of `entries` (name -> bytes, or -> a function yielding the entry's bytes in chunks, which are
 * deflated one by one and never held whole), deflated at `level` (zlib's 0-9), entries dated `mtime`.
 */
function zipOf(entries, { level = 6, mtime } = {}) {
  const parts = [];
  let failure;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else parts.push(chunk);
  });
  for (const [name, value] of Object.entries(entries)) {
    const streamed = typeof value === 'function';
    const entry = new ZlibEntry(name, { level, mtime, streamed });
    zip.add(entry);
    if (!streamed) entry.push(value, true);
    else {
      let previous;
      for (const chunk of value()) {
        if (previous) entry.push(previous, false);
        previous = chunk;
      }
      entry.push(previous ?? new Uint8Array(0), true);
    }
  }
  zip.end();
  if (failure) throw failure;
  return Buffer.concat(parts);
}

module.exports = { zipOf };
