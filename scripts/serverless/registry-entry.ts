// What the serverless plugin reads from the TypeScript side (scripts/serverless/registry.cjs).

export { CORS as cors } from '../../lib/http/cors';
export { DEFAULT_TIERS as fairUseTiers } from '../../lib/platform/fair-use';
export { services } from '../../schemas/index';
