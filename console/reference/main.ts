// The API reference (GET /docs; docs/console.md): Swagger UI over this deployment's OpenAPI document
// (GET /openapi.json). Its "try it" calls the API that serves the page (the document's servers are
// replaced by the page's own base, the stage included), with the bearer token given in the bar
// above it, in the URL's fragment or in the console of the same tab.
import 'swagger-ui-dist/swagger-ui.css';
import './style.css';
// Swagger UI's licence, notice and the licences of what its bundle holds, served beside it
import licence from 'swagger-ui-dist/LICENSE?url';
import notice from 'swagger-ui-dist/NOTICE?url';
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js';
import bundled from 'swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt?url';
import { apiBase, initialToken, saveToken } from '../token';

/** The document's security scheme of bearer tokens (lib/http/openapi.ts). */
const BEARER = 'bearerAuth';

async function main(): Promise<void> {
  const token = initialToken();
  const base = apiBase();
  const response = await fetch(new URL('openapi.json', base));
  if (!response.ok) throw new Error(`GET openapi.json answered ${response.status}`);
  const spec = (await response.json()) as Record<string, unknown>;
  spec.servers = [{ url: base.replace(/\/$/, ''), description: 'this deployment' }];
  const ui = SwaggerUIBundle({
    spec,
    dom_id: '#reference',
    deepLinking: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: -1,
    displayOperationId: true,
    filter: true,
    tryItOutEnabled: false,
    validatorUrl: null,
  });

  const licences = document.querySelector<HTMLElement>('#licences')!;
  for (const [text, url] of [
    ['licence', licence],
    ['notice', notice],
    ['bundled licences', bundled],
  ] as const) {
    const link = document.createElement('a');
    link.href = new URL(url, import.meta.url).href;
    link.textContent = text;
    licences.append(link, ' ');
  }

  const form = document.querySelector<HTMLFormElement>('#token-form')!;
  const input = document.querySelector<HTMLInputElement>('#token')!;
  const state = document.querySelector<HTMLElement>('#token-state')!;
  const use = (value: string) => {
    ui.preauthorizeApiKey(BEARER, value);
    state.textContent = 'token set: "Try it out" sends it';
  };
  if (token) {
    input.value = token;
    use(token);
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    saveToken(value);
    use(value);
  });
}

main().catch((error: unknown) => {
  document.querySelector('#reference')!.textContent = `The reference could not load: ${(error as Error).message}`;
});
