// Fonts bundled as bytes (esbuild loader '.woff': 'binary', deploy/esbuild.yml).
declare module '*.woff' {
  const bytes: Uint8Array;
  export default bytes;
}
