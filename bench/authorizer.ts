// npm run bench -- authorizer: what the API's Lambda authorizer costs a request, cold and
// warm, and what a function pays to verify the token itself (which it still does, ADR 0004).
//
// - cold: fresh Node processes that import the packaged authorizer (.surco/package/platform/
//   apiAuthorizer.zip: run `npm run package` first) and answer one request: the import, then the
//   first verdict (the token verified: the signing key read from the table, jose loaded).
// - warm: in this process, the verdict of a token already seen (the authorizer's own cache: API
//   Gateway does not cache it, so that a request without a token still reaches the function), of a
//   token not seen (verified, the key in memory), a function's own principalFromToken (verified,
//   and the user read) and its principalFromVerdict (the authorizer's context taken, the user read).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpack } from './cold-start';
import { benchStack, benchUser, functionEnv, median, root, round } from './lib';

const RUNS = Number(process.env.AUTHORIZER_RUNS ?? 7);
const WARM = 2_000;

async function coldSample(file: string, env: Record<string, string>, token: string) {
  const script = `
    const t0 = performance.now();
    const { handler } = await import(${JSON.stringify(`file://${file}`)});
    const t1 = performance.now();
    const answer = await handler({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:r:a:api/prod/GET/x',
      headers: { Authorization: 'Bearer ${token}' }, queryStringParameters: null });
    const t2 = performance.now();
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, verified: answer.context.verified }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...env, PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  await once(child, 'exit');
  return JSON.parse(out) as { importMs: number; firstMs: number; verified: string };
}

export async function run() {
  const zip = join(root, '.surco', 'package', 'platform', 'apiAuthorizer.zip');
  if (!existsSync(zip)) throw new Error('no packaged authorizer: npm run package first');
  const stack = await benchStack();
  const dir = mkdtempSync(join(tmpdir(), 'surco-authorizer-'));
  try {
    const { headers } = await benchUser(stack);
    const token = headers.authorization.slice('Bearer '.length);
    const env = {
      ...functionEnv(stack),
      SURCO_DEFAULT_TIER: 'standard',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const bundle = unpack(zip, dir)!;
    const cold = [];
    for (let i = 0; i < RUNS; i++) cold.push(await coldSample(bundle.file, env, token));

    Object.assign(process.env, env);
    const { forgetVerdicts, verdictOf } = await import('../lib/auth/authorizer');
    const { principalFromToken, principalFromVerdict } = await import('../lib/auth/principal');
    const { context: verdict } = await verdictOf(token);
    await principalFromToken(token);
    const time = async (fn: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < WARM; i++) {
        const t0 = performance.now();
        await fn();
        samples.push(performance.now() - t0);
      }
      return round(median(samples), 3);
    };
    const cached = await time(() => verdictOf(token));
    const uncached = await time(() => {
      forgetVerdicts();
      return verdictOf(token);
    });
    const inFunction = await time(() => principalFromToken(token));
    const fromVerdict = await time(() => principalFromVerdict(verdict)!);
    console.log(
      JSON.stringify(
        {
          suite: 'authorizer',
          bundleKbAtImport: round(bundle.bytes / 1024),
          cold: {
            runs: RUNS,
            importMs: round(median(cold.map((c) => c.importMs))),
            firstVerdictMs: round(median(cold.map((c) => c.firstMs))),
            verified: cold.every((c) => c.verified === 'true'),
          },
          warmMedianMs: {
            cachedVerdict: cached,
            verifiedVerdict: uncached,
            functionPrincipalFromToken: inFunction,
            functionPrincipalFromVerdict: fromVerdict,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stack.dispose();
  }
}
