// The internal API's shared key (header x-internal-key): SURCO_INTERNAL_KEY locally, a Secrets
// Manager secret in AWS. Compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { secretValue } from '../aws/secrets';
import { config } from '../config';
import { Unauthenticated } from '../errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

export async function checkInternalKey(presented: string | undefined): Promise<void> {
  if (!presented) throw new Unauthenticated('the x-internal-key header is missing');
  const expected = await secretValue(config().internalKey, 'internal key');
  if (!timingSafeEqual(digest(presented), digest(expected))) {
    throw new Unauthenticated('the x-internal-key header is not valid');
  }
}
