// What the serverless plugin reads from the TypeScript side (scripts/serverless/registry.cjs).
export { services } from '../../schemas/index';
export { CORS as cors } from '../../lib/http/cors';
