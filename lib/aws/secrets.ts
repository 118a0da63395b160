// Secrets: given directly through the environment locally, read once per container from
// Secrets Manager in AWS.
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { secrets } from './clients';

const cache = new Map<string, Promise<string>>();

export function secretValue(source: { value?: string; secretId?: string }, name: string): Promise<string> {
  if (source.value) return Promise.resolve(source.value);
  const secretId = source.secretId;
  if (!secretId) return Promise.reject(new Error(`secret ${name} is not configured`));
  let pending = cache.get(secretId);
  if (!pending) {
    pending = secrets()
      .send(new GetSecretValueCommand({ SecretId: secretId }))
      .then((out) => {
        if (!out.SecretString) throw new Error(`secret ${name} is empty`);
        return out.SecretString;
      });
    pending.catch(() => cache.delete(secretId));
    cache.set(secretId, pending);
  }
  return pending;
}
