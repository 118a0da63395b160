// Where a bundled function's AWS clients find their credentials. Every client of the SDK imports
// the default credential chain of @aws-sdk/credential-provider-node (environment, SSO, shared ini
// files, credential processes, web identity, container and instance metadata): about 90 KB of
// every bundle and of its cold start, of which a function reads one source. Lambda gives a
// function its role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN), and the local stack gives its functions the local credentials the same way
// (scripts/local/stack.ts); a runtime that serves them from a container endpoint instead
// (AWS_CONTAINER_CREDENTIALS_FULL_URI) is read from there. So the production build (and the
// local one, which is the same build) swaps the chain for this module (deploy/esbuild.yml
// `alias`); tests and scripts that import the SDK directly keep the full chain. Measured in
// docs/benchmarks.md (cold starts); tests/unit/credentials.test.ts checks both sources and the
// error when neither is there.
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { fromHttp } from '@aws-sdk/credential-provider-http';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, Logger } from '@aws-sdk/types';

/** Credentials from a container endpoint are read again this long before they expire. */
const REFRESH_BEFORE_MS = 5 * 60_000;

/** The same signature as @aws-sdk/credential-provider-node's defaultProvider, which it stands in for. */
export const defaultProvider = (init: { logger?: Logger } = {}): AwsCredentialIdentityProvider => {
  let remote: Promise<AwsCredentialIdentity> | undefined;
  return async () => {
    if (process.env.AWS_ACCESS_KEY_ID && process.env.AWS_SECRET_ACCESS_KEY) return fromEnv(init)();
    if (process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI || process.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) {
      const cached = remote ? await remote.catch(() => undefined) : undefined;
      if (!cached || (cached.expiration && cached.expiration.getTime() - Date.now() < REFRESH_BEFORE_MS)) {
        remote = fromHttp(init)();
      }
      return remote!;
    }
    throw new Error(
      'No AWS credentials: neither AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY nor a container credentials endpoint is set (lib/aws/credentials.ts)',
    );
  };
};
