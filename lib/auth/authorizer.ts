// The API's Lambda authorizer (docs/integrations.md "Rate limits"): API Gateway calls it
// before every bearer route. It verifies the token (cached per token for SURCO_AUTHORIZER_CACHE_S),
// names the usage-plan key of the caller's extension (its API key, in the usage plan of the
// extension's tier: API Gateway then throttles and counts the extension's requests) and gives the
// user and extension to the access log and the function ($context.authorizer.*): the function takes
// its caller from a verified context (the token's user, extension and claims; lib/auth/principal.ts
// `principalFromVerdict`) instead of verifying the token again. A request whose token does not
// verify is not denied but let through as `anonymous` (its own usage plan), so that the function
// verifies it itself and answers 401 in its area's dialect exactly as before. In AWS it also keeps each
// user's own rate within its extension (lib/platform/user-rate.ts): the one thing it denies.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { defaultProvider } from '../aws/credentials';
import { keys } from '../db/keys';
import { getItem, putItem } from '../db/table';
import { DomainError } from '../errors';
import { log } from '../log';
import { type FairUseConfig, fairUseConfig, SESSION, tierOf, UNVERIFIED } from '../platform/fair-use';
import { takeUserRequest } from '../platform/user-rate';
import { verifyToken } from './tokens';

export interface AuthorizerContext {
  [key: string]: string;
  /** '' when the token does not verify. */
  userId: string;
  /** '' for a user's own session; '-' when the token does not verify. */
  extensionId: string;
  tier: string;
  verified: 'true' | 'false';
  /** The verified token's claims (a JSON array), locale and extension version ('' when it does not verify). */
  claims: string;
  locale: string;
  extensionVersion: string;
}

export interface Verdict {
  principalId: string;
  context: AuthorizerContext;
  /** The caller's usage-plan key: its extension's API key (AWS), or `<tier>:<extension>` locally. */
  usageKey: string;
}

const cacheSeconds = () => Number(process.env.SURCO_AUTHORIZER_CACHE_S ?? 300);
const cache = new Map<string, { verdict: Verdict; until: number }>();
let config: FairUseConfig | undefined;

/** Forgets every cached verdict (benchmarks, tests). */
export const forgetVerdicts = (): void => cache.clear();

/** The bearer token of a request: the Authorization header, or `?access_token=` (the notification stream). */
export function tokenOf(event: Pick<APIGatewayRequestAuthorizerEvent, 'headers' | 'queryStringParameters'>) {
  const headers = event.headers ?? {};
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? event.queryStringParameters?.access_token ?? undefined;
}

/** Who calls, by tier (a token that does not verify is `anonymous`: the function refuses it). */
export async function verdictOf(token: string | undefined, now = Date.now()): Promise<Verdict> {
  config ??= fairUseConfig();
  const cacheKey = createHash('sha256')
    .update(token ?? '')
    .digest('base64url');
  const hit = cache.get(cacheKey);
  if (hit && hit.until > now) return hit.verdict;
  let userId = '';
  let extensionId = UNVERIFIED;
  // what the function takes from a verified token besides its user and extension
  let fromToken: Pick<AuthorizerContext, 'claims' | 'locale' | 'extensionVersion'> = {
    claims: '[]',
    locale: '',
    extensionVersion: '',
  };
  let until = now + cacheSeconds() * 1000;
  if (token) {
    try {
      const claims = await verifyToken(token);
      userId = String(claims.sub);
      extensionId = claims.ext ?? SESSION;
      fromToken = {
        claims: JSON.stringify(claims.claims),
        locale: claims.locale,
        extensionVersion: claims.ext_ver ?? '',
      };
      // a verdict outlives no token
      if (claims.exp) until = Math.min(until, claims.exp * 1000);
    } catch (error) {
      // a token that does not verify is the function's to refuse; a failure of ours propagates
      if (!(error instanceof DomainError)) throw error;
    }
  }
  const tier = tierOf(config, extensionId);
  const verdict: Verdict = {
    principalId: userId ? `user/${userId}` : 'anonymous',
    context: { userId, extensionId, tier, verified: userId ? 'true' : 'false', ...fromToken },
    usageKey: await usageKeyOf(tier, extensionId),
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(cacheKey, { verdict, until });
  return verdict;
}

/**
 * The handler's answer to API Gateway: allow the whole API, with the usage key; deny a user over its
 * own rate within its extension (AWS only: the local gateway limits users itself), which API Gateway
 * answers with the ACCESS_DENIED gateway response, a 429 (deploy/api.yml).
 */
export async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const verdict = await verdictOf(tokenOf(event));
  const limited = await userRateOf(verdict);
  // arn:aws:execute-api:region:account:api/stage/METHOD/path -> arn:...:api/stage/*
  const [arn = '*', stage = '*'] = event.methodArn.split('/');
  return {
    principalId: verdict.principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: limited ? 'Deny' : 'Allow', Resource: `${arn}/${stage}/*` }],
    },
    context: limited ? { ...verdict.context, retryAfter: String(limited.retryAfterS) } : verdict.context,
    usageIdentifierKey: verdict.usageKey,
  };
}

/**
 * In AWS (usage plans configured), a verified user's request taken from its rate within its
 * extension; the seconds to wait when it is over. A failure to count lets the request through
 * (logged): the limit protects the platform, it is not a reason to refuse a user.
 */
async function userRateOf(verdict: Verdict): Promise<{ retryAfterS: number } | undefined> {
  if (!usagePlans() || verdict.context.verified !== 'true') return undefined;
  config ??= fairUseConfig();
  const tier = config.tiers[verdict.context.tier]!;
  try {
    const taken = await takeUserRequest(verdict.context.extensionId, verdict.context.userId, {
      rate: tier.userRate,
      burst: tier.userBurst,
    });
    return taken.ok ? undefined : { retryAfterS: taken.retryAfterS };
  } catch (error) {
    log.warn('user rate not counted', { error });
    return undefined;
  }
}

// --- API keys: one per extension, in its tier's usage plan (AWS only) ------------------------------

/** Usage plan ids by tier (SURCO_USAGE_PLANS, JSON, set by the template); absent locally. */
const usagePlans = (): Record<string, string> | undefined =>
  process.env.SURCO_USAGE_PLANS ? (JSON.parse(process.env.SURCO_USAGE_PLANS) as Record<string, string>) : undefined;

const apiKeys = new Map<string, Promise<string>>();

/**
 * The usage key of an extension in a tier: locally `<tier>:<extension>`; in AWS the value of its API
 * key, made at its first request (an API key in the tier's usage plan) and kept in the table.
 */
async function usageKeyOf(tier: string, extensionId: string): Promise<string> {
  const plans = usagePlans();
  if (!plans) return `${tier}:${extensionId}`;
  const name = `${tier}:${extensionId}`;
  let key = apiKeys.get(name);
  if (!key) {
    key = ensureApiKey(tier, extensionId, plans[tier]!);
    key.catch(() => apiKeys.delete(name));
    apiKeys.set(name, key);
  }
  return key;
}

async function ensureApiKey(tier: string, extensionId: string, planId: string): Promise<string> {
  const itemKey = keys.extensionApiKey(tier, extensionId);
  const stored = await getItem(itemKey);
  if (stored) return String(stored.value);
  const value = randomBytes(30).toString('base64url');
  const stage = process.env.SURCO_STAGE ?? 'dev';
  const created = (await apiGateway('POST', '/apikeys', {
    name: `surco-${stage}-${tier}-${extensionId || 'session'}`.slice(0, 1024),
    description: `Surco usage key of extension ${JSON.stringify(extensionId)} (tier ${tier})`,
    enabled: true,
    value,
  })) as { id: string };
  await apiGateway('POST', `/usageplans/${encodeURIComponent(planId)}/keys`, { keyId: created.id, keyType: 'API_KEY' });
  try {
    await putItem(
      { ...itemKey, kind: 'api_key', value, key_id: created.id, tier, extension_id: extensionId },
      { expression: 'attribute_not_exists(pk)', failure: () => new DomainError('conflict', 'taken') },
    );
    return value;
  } catch {
    // another authorizer made the extension's key at the same moment: the first one stored is used
    // (the other key stays in the plan, unused)
    const winner = await getItem(itemKey);
    return String(winner?.value ?? value);
  }
}

/** Node's SHA-256 in the shape Signature V4 expects. */
type Bytes = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Bytes): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

class Sha256 {
  private readonly hash;
  constructor(secret?: Bytes) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: Bytes) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

/** One call of API Gateway's management API, signed with the function's role. */
async function apiGateway(method: string, path: string, body: unknown): Promise<unknown> {
  const region = process.env.AWS_REGION ?? 'us-east-1';
  const hostname = `apigateway.${region}.amazonaws.com`;
  const signer = new SignatureV4({ service: 'apigateway', region, credentials: defaultProvider(), sha256: Sha256 });
  const text = JSON.stringify(body);
  const signed = await signer.sign({
    method,
    protocol: 'https:',
    hostname,
    path,
    headers: { host: hostname, 'content-type': 'application/json' },
    body: text,
  });
  const response = await fetch(`https://${hostname}${path}`, {
    method,
    headers: signed.headers as Record<string, string>,
    body: text,
    signal: AbortSignal.timeout(3_000),
  });
  if (!response.ok) throw new Error(`API Gateway ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}
