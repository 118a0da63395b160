'use strict';
// osls writes the packaged service's state (.serverless/serverless-state.json, which `deploy
// --package` reads back) with json-cycle 1.5's stringify. Its decycle finds an object seen before by
// a linear search of every object seen so far, and asks every value, primitives included, for
// toJSON by throwing when it has none: quadratic in the service's objects, a quarter of a
// template-only packaging's CPU (the platform service: 1.7 -> 1.3 user-seconds without it; half
// under a profiler, which makes the thrown errors dearer). This is the same function with a Map:
// the same output, byte for byte (tests/unit/decycle.test.ts), in linear time. The serverless
// plugin writes the state with it (scripts/serverless/surco-plugin.cjs).

/**
 * A deep copy of `object` where every object or array met a second time (a cycle or a shared
 * reference) is `{ $ref: <path of its first appearance> }`, as json-cycle's `decycle`.
 */
function decycle(object) {
  const paths = new Map();
  const derez = (value, path) => {
    let own = value;
    if (value !== null && value !== undefined && typeof value.toJSON === 'function') {
      try {
        own = value.toJSON();
      } catch {
        own = value;
      }
    }
    if (typeof own !== 'object' || own === null) return own;
    const seen = paths.get(own);
    if (seen !== undefined) return { $ref: seen };
    paths.set(own, path);
    if (Array.isArray(own)) {
      const copy = [];
      for (let i = 0; i < own.length; i += 1) copy[i] = derez(own[i], `${path}[${i}]`);
      return copy;
    }
    const copy = {};
    for (const name in own) {
      if (Object.hasOwn(own, name)) copy[name] = derez(own[name], `${path}[${JSON.stringify(name)}]`);
    }
    return copy;
  };
  return derez(object, '$');
}

/** json-cycle's `stringify`: JSON of the decycled copy. */
const stringify = (object, replacer, space) => JSON.stringify(decycle(object), replacer, space);

module.exports = { decycle, stringify };
