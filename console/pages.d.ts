// What the pages' build (deploy/pages.cjs) gives besides TypeScript: styles, files loaded by URL.
declare module '*.css';
/** A file of a package loaded by the page at run time: its URL, relative to the page's script. */
declare module '*?url' {
  const url: string;
  export default url;
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  interface SwaggerUI {
    preauthorizeApiKey(scheme: string, value: string): void;
  }
  const SwaggerUIBundle: (options: Record<string, unknown>) => SwaggerUI;
  export default SwaggerUIBundle;
}
