// Secrets: given directly through the environment locally, read once per container from
// Secrets Manager in AWS. The client is created only when a secret is read there, but imported
// statically: a dynamic import() of it made esbuild wrap every SDK module it shares with the
// DynamoDB client in a lazy initialiser, which cost ~20 ms of each cold start (docs/benchmarks.md).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config';
import { AWS_REQUEST_HANDLER } from './http';

const cache = new Map<string, Promise<string>>();

async function fetchSecret(secretId: string, name: string): Promise<string> {
  const client = new SecretsManagerClient({ region: config().region, requestHandler: AWS_REQUEST_HANDLER });
  const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!out.SecretString) throw new Error(`secret ${name} is empty`);
  return out.SecretString;
}

export function secretValue(source: { value?: string; secretId?: string }, name: string): Promise<string> {
  if (source.value) return Promise.resolve(source.value);
  const secretId = source.secretId;
  if (!secretId) return Promise.reject(new Error(`secret ${name} is not configured`));
  let pending = cache.get(secretId);
  if (!pending) {
    pending = fetchSecret(secretId, name);
    pending.catch(() => cache.delete(secretId));
    cache.set(secretId, pending);
  }
  return pending;
}
