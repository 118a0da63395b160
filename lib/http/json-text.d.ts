// `import text from './x.json?text'`: the file's JSON as compact text (deploy/esbuild-plugins.cjs,
// json-parse; vitest.config.ts).
declare module '*.json?text' {
  const text: string;
  export default text;
}
