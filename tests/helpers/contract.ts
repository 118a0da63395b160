// Every answer the stack tests get through `call` (tests/helpers/api.ts) is checked against the
// operation's documented response in docs/openapi.json, the document the typed client is generated
// from: its status must be one the operation documents (an error status falls to its `default`, the
// area's error dialect), and a JSON body must match that response's schema. An answer of a route
// the document does not describe (an unknown path, a declared path's undeclared method) is the
// catch-all's or the gateway's and is not an operation's. What was checked is noted, per test
// process, in .surco/test-logs/contract-<pid>.log; the stack's teardown sums it up
// (tests/setup/stack.ts).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const root = join(import.meta.dirname, '..', '..');
export const CONTRACT_LOG_DIR = join(root, '.surco', 'test-logs');

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface Compiled {
  pattern: RegExp;
  rank: number;
  operations: Record<string, Operation>;
}

let compiled: Compiled[] | undefined;
// each test process compiles the schemas of the answers it sees; without ajv's code optimisation a
// compile takes half the CPU (the whole document: ~1 s -> ~0.5 s) and validates the same
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, code: { optimize: false } });
addFormats.default(ajv);
const validators = new Map<object, ValidateFunction>();
const checked = new Set<string>();

function operations(): Compiled[] {
  if (compiled) return compiled;
  const document = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, Operation>>;
    components?: { responses?: Record<string, Operation['responses'][string]> };
  };
  // a response shared by many operations is a reference to the components (the 429 of fair use)
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values(methods))
      for (const [status, response] of Object.entries(operation.responses)) {
        const ref = (response as { $ref?: string }).$ref?.match(/^#\/components\/responses\/(.+)$/)?.[1];
        if (ref) operation.responses[status] = document.components!.responses![ref]!;
      }
  compiled = Object.entries(document.paths)
    .map(([path, methods]) => {
      const parts = path.split('/').filter(Boolean);
      const pattern = new RegExp(
        `^${parts.map((part) => (part.startsWith('{') ? '/[^/]+' : `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)).join('')}$`,
      );
      const rank = parts.filter((part) => part.startsWith('{')).length;
      return { pattern, rank, operations: methods };
    })
    .sort((a, b) => a.rank - b.rank);
  return compiled;
}

const validatorOf = (schema: object): ValidateFunction => {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
};

/** The operation a request is, or undefined for a route the document does not describe. */
export function operationOf(method: string, pathname: string): Operation | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const entry of operations()) {
    if (entry.pattern.test(path)) return entry.operations[method.toLowerCase()];
  }
  return undefined;
}

/** Checks one answer against the document; throws with what differs. */
export function checkAnswer(
  method: string,
  pathname: string,
  answer: {
    status: number;
    contentType: string | null;
    /** The body as text (JSON is checked against its schema); '' for bytes, whose length is `size`. */
    text: string;
    size?: number;
  },
): void {
  const operation = operationOf(method, pathname);
  if (!operation) return;
  const status = String(answer.status);
  const documented = operation.responses[status] ?? (answer.status >= 400 ? operation.responses.default : undefined);
  if (!documented) {
    throw new Error(
      `${method} ${pathname} answered ${status}, which ${operation.operationId} does not document (${Object.keys(operation.responses).join(', ')})`,
    );
  }
  const key = operation.responses[status] ? status : 'default';
  record(`${operation.operationId} ${key}${key === 'default' ? ` (${status})` : ''}`);
  const json = documented.content?.['application/json'];
  const mediaType = (answer.contentType ?? '').split(';')[0]!.trim();
  // an answer with a body is of a media type the response documents (`image/*` takes any image)
  const documentedTypes = Object.keys(documented.content ?? {});
  const matches = (type: string) =>
    type === mediaType || (type.endsWith('/*') && mediaType.startsWith(type.slice(0, -1)));
  if ((answer.text || answer.size) && documentedTypes.length && !documentedTypes.some(matches)) {
    throw new Error(
      `${method} ${pathname} answered ${status} as ${mediaType || 'no media type'}, which ${operation.operationId} ${key} does not document (${documentedTypes.join(', ')})`,
    );
  }
  if (!json?.schema || mediaType !== 'application/json' || !answer.text) return;
  const validate = validatorOf(json.schema);
  if (!validate(JSON.parse(answer.text))) {
    const errors = ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' });
    throw new Error(
      `${method} ${pathname} answered ${status} with a body its documented response (${operation.operationId} ${key}) does not describe: ${errors}\n${answer.text.slice(0, 2000)}`,
    );
  }
}

/** Notes a checked (operation, status) the first time this test process sees it. */
function record(entry: string): void {
  if (checked.has(entry)) return;
  checked.add(entry);
  mkdirSync(CONTRACT_LOG_DIR, { recursive: true });
  appendFileSync(join(CONTRACT_LOG_DIR, `contract-${process.pid}.log`), `${entry}\n`);
}
