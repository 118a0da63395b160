// lib/aws/credentials.ts: the bundled functions' AWS credentials come from the environment (or a
// container endpoint), not from the SDK's whole default chain; the production build swaps the
// chain for it (deploy/esbuild.yml alias), and a client in such a bundle signs with them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../lib/aws/credentials';
import { deployBuildOptions } from '../../scripts/esbuild-options';

const root = join(import.meta.dirname, '..', '..');

/** A local HTTP server answering every request with `answer`, recording the requests' headers. */
async function server(answer: (count: number, headers: IncomingHttpHeaders) => { status: number; body: string }) {
  const seen: IncomingHttpHeaders[] = [];
  const http = createServer((request, response) => {
    seen.push(request.headers);
    const { status, body } = answer(seen.length, request.headers);
    request.resume();
    request.on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}

const KEYS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
];

describe('credentials of a bundled function', () => {
  afterEach(() => vi.unstubAllEnvs());
  const clear = () => {
    for (const key of KEYS) vi.stubEnv(key, '');
  };

  it('reads the credentials Lambda puts in the environment', async () => {
    clear();
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDENVIRONMENT');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret-from-env');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session-from-env');
    const credentials = await defaultProvider()();
    expect(credentials).toMatchObject({
      accessKeyId: 'AKIDENVIRONMENT',
      secretAccessKey: 'secret-from-env',
      sessionToken: 'session-from-env',
    });
  });

  it('reads a container endpoint when the environment has no keys, once until they near their expiry', async () => {
    clear();
    const expiration = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    // the first answer expires in 2 minutes (read again next time), the second in an hour
    const endpoint = await server((count) => ({
      status: 200,
      body: JSON.stringify({
        AccessKeyId: `AKIDCONTAINER${count}`,
        SecretAccessKey: 'secret',
        Token: 'token',
        Expiration: expiration(count === 1 ? 2 : 60),
      }),
    }));
    try {
      vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', `${endpoint.url}/credentials`);
      const provider = defaultProvider();
      expect((await provider()).accessKeyId).toBe('AKIDCONTAINER1');
      expect((await provider()).accessKeyId).toBe('AKIDCONTAINER2');
      expect((await provider()).accessKeyId).toBe('AKIDCONTAINER2');
      expect(endpoint.seen).toHaveLength(2);
    } finally {
      await endpoint.close();
    }
  });

  it('reads the endpoint again after a failed read', async () => {
    clear();
    let failing = true;
    const endpoint = await server(() =>
      failing
        ? { status: 500, body: '{}' }
        : {
            status: 200,
            body: JSON.stringify({
              AccessKeyId: 'AKIDRETRIED',
              SecretAccessKey: 's',
              Token: 't',
              Expiration: new Date(Date.now() + 3_600_000).toISOString(),
            }),
          },
    );
    try {
      vi.stubEnv('AWS_CONTAINER_CREDENTIALS_FULL_URI', `${endpoint.url}/credentials`);
      const provider = defaultProvider();
      await expect(provider()).rejects.toThrow();
      failing = false;
      expect((await provider()).accessKeyId).toBe('AKIDRETRIED');
    } finally {
      await endpoint.close();
    }
  });

  it('says what is missing when there are no credentials at all', async () => {
    clear();
    await expect(defaultProvider()()).rejects.toThrow(/No AWS credentials: neither AWS_ACCESS_KEY_ID/);
  });

  it('is what a production bundle signs with: the default chain is not in it, and requests carry the environment key (DynamoDB, and a secret read from Secrets Manager)', async () => {
    expect(deployBuildOptions().alias['@aws-sdk/credential-provider-node']).toBe('./lib/aws/credentials');
    const dir = mkdtempSync(join(tmpdir(), 'surco-credentials-'));
    writeFileSync(
      join(dir, 'handler.ts'),
      [
        `import { ddb } from ${JSON.stringify(join(root, 'lib', 'aws', 'dynamodb'))};`,
        `import { secretValue } from ${JSON.stringify(join(root, 'lib', 'aws', 'secrets'))};`,
        "import { ScanCommand } from '@aws-sdk/lib-dynamodb';",
        "export const handler = async () => { await ddb().send(new ScanCommand({ TableName: 'probe' })); return secretValue({ secretId: 'probe-secret' }, 'probe'); };",
        '',
      ].join('\n'),
    );
    const outfile = join(dir, 'handler.mjs');
    await build({ ...deployBuildOptions(), entryPoints: [join(dir, 'handler.ts')], sourcemap: false, outdir: dir });
    const bundle = readFileSync(outfile, 'utf8');
    // the default chain's providers, by what they log and read
    const chain = [
      'defaultProvider::fromSSO',
      'credential-provider-ini',
      'credential-provider-web-identity',
      'AWS_WEB_IDENTITY_TOKEN_FILE',
    ];
    expect(chain.filter((part) => bundle.includes(part))).toEqual([]);
    const aws = await server((_, headers) =>
      headers['x-amz-target'] === 'secretsmanager.GetSecretValue'
        ? { status: 200, body: JSON.stringify({ Name: 'probe-secret', SecretString: 's3cr3t' }) }
        : { status: 200, body: JSON.stringify({ Items: [], Count: 0, ScannedCount: 0 }) },
    );
    try {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(outfile).href)}); console.log(await m.handler());`;
      const env = {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'AKIDFROMLAMBDA',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'token',
        SURCO_TABLE: 't',
        SURCO_BUCKET: 'b',
        SURCO_EVENTS_QUEUE_URL: 'q',
        SURCO_DYNAMODB_ENDPOINT: aws.url,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: aws.url,
      };
      // spawned asynchronously: the server answering it runs in this process
      const run = await new Promise<{ status: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, cwd: dir });
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        let err = '';
        child.stderr.on('data', (chunk) => (err += chunk));
        child.on('close', (status) => resolve({ status, out: out || err }));
      });
      expect(run.out.trim()).toBe('s3cr3t');
      expect(run.status).toBe(0);
      expect(aws.seen.map((headers) => headers['x-amz-target'])).toEqual([
        'DynamoDB_20120810.Scan',
        'secretsmanager.GetSecretValue',
      ]);
      for (const headers of aws.seen) {
        expect(headers.authorization).toMatch(/Credential=AKIDFROMLAMBDA\//);
        expect(headers['x-amz-security-token']).toBe('token');
      }
    } finally {
      await aws.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
