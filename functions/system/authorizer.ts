// The API's Lambda authorizer (REQUEST type), in front of every bearer route: lib/auth/authorizer.ts.
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorize } from '../../lib/auth/authorizer';

export const handler = (event: APIGatewayRequestAuthorizerEvent) => authorize(event);
