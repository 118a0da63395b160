// What the serverless plugin reads from the TypeScript side (scripts/serverless/registry.cjs).

export { CORS as cors } from '../../lib/http/cors';
export { services } from '../../schemas/index';
