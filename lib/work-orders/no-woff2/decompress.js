// Stands in for the brotli decompressor fontkit imports to read WOFF2 fonts (475 KB minified).
// The work-order PDF embeds WOFF 1 fonts only, so it is never called; the build aliases
// 'brotli' here (deploy/esbuild.yml). Kept as a module that fails loudly if that ever changes.
export default function decompress() {
  throw new Error('WOFF2 fonts are not supported in this bundle (lib/work-orders/no-woff2)');
}
