// `import files from 'surco-pages:<page>'`: the files of a web page built with the function that
// serves it (deploy/pages.cjs; the `pages` plugin of deploy/esbuild-plugins.cjs), each a PageFile
// (lib/http/pages.ts).
declare module 'surco-pages:*' {
  const files: Array<{ name: string; type: string; url: string }>;
  export default files;
}
