// ANY /{proxy+}: routes that do not exist answer 404 in the dialect of the area the path belongs
// to (general otherwise), not in API Gateway's or serverless-offline's own shape.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { NotFound } from '../../lib/errors';
import { type Dialect, generalDialect } from '../../lib/http/dialects';
import { endpoint } from '../../lib/http/endpoint';
import { notFoundRoute, UNKNOWN_ROUTE_DIALECTS, unknownRouteDialect } from '../../schemas/system';

const answerIn = (dialect: Dialect) =>
  endpoint(
    { ...notFoundRoute, dialect },
    {
      handler: async ({ event }) => {
        throw new NotFound(`route not found: ${event.httpMethod} ${event.path}`);
      },
    },
  );

// one handler per dialect an unknown path can get (the maps' was missing: /api/users/me/maps/x/y
// found no handler and failed)
const handlers = new Map(
  [generalDialect, ...UNKNOWN_ROUTE_DIALECTS.map(([, dialect]) => dialect)].map((dialect) => [
    dialect,
    answerIn(dialect),
  ]),
);

export const any = Object.assign(
  (event: APIGatewayProxyEvent, context: Context) =>
    handlers.get(unknownRouteDialect(event.path ?? ''))!(event, context),
  { route: notFoundRoute },
);
