// A module hook for benchmarks that call handlers in their own process (tsx): a CommonJS package
// whose named exports Node cannot detect is given them, as esbuild does when it bundles the functions.
const NAMED = { 'geographiclib-geodesic': ['Geodesic'] };

export async function load(url, context, next) {
  const name = Object.keys(NAMED).find((pkg) => url.includes(`/node_modules/${pkg}/`));
  if (!name || url.endsWith('#cjs')) return next(url, context);
  const names = NAMED[name].map((n) => `export const ${n} = m.${n};`).join('\n');
  return {
    format: 'module',
    shortCircuit: true,
    source: `import m from ${JSON.stringify(`${url}#cjs`)};\n${names}\nexport default m;`,
  };
}
