// ANY /{proxy+}: routes that do not exist answer 404 in the dialect of the area the path belongs
// to (general otherwise), not in API Gateway's or serverless-offline's own shape.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { NotFound } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { livestockDialect, sensorsDialect, spotsDialect, type Dialect } from '../../lib/http/dialects';
import { notFoundRoute } from '../../schemas/system';

const answerIn = (dialect: Dialect) =>
  endpoint(
    { ...notFoundRoute, dialect },
    {
      handler: async ({ event }) => {
        throw new NotFound(`route not found: ${event.httpMethod} ${event.path}`);
      },
    },
  );

const byPrefix: Array<[RegExp, ReturnType<typeof answerIn>]> = [
  [/^\/sensors\//, answerIn(sensorsDialect)],
  [/^(\/api)?\/livestock\//, answerIn(livestockDialect)],
  [/^(\/api)?\/spots\//, answerIn(spotsDialect)],
];
const general = answerIn(notFoundRoute.dialect);

export const any = (event: APIGatewayProxyEvent, context: Context) =>
  (byPrefix.find(([pattern]) => pattern.test(event.path ?? ''))?.[1] ?? general)(event, context);
