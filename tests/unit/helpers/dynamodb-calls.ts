// The DynamoDB calls of the real repositories, taken at the one client (lib/aws/dynamodb.ts) by a
// middleware that answers them itself: nothing is sent. For unit tests of how a repository reads
// and writes (which calls, how consistent), not of what DynamoDB answers.
import { ddb } from '../../../lib/aws/dynamodb';

export interface DynamoDbCall {
  command: string;
  input: Record<string, any>;
}

const NAME = 'surcoTestDynamoDbCalls';

/**
 * Takes every call of the client until `stop()`, answering each with `answer(call)` (the document
 * client's output: plain values), `{}` by default. Gives the process the configuration the client
 * is made from, if no other test of the worker gave one.
 */
export function captureDynamoDbCalls(answer: (call: DynamoDbCall) => Record<string, unknown> = () => ({})) {
  for (const [name, value] of Object.entries({
    SURCO_TABLE: 'unit-calls',
    SURCO_BUCKET: 'unit-calls',
    SURCO_EVENTS_QUEUE_URL: 'http://127.0.0.1:1/000000000000/unit-calls',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
  }))
    process.env[name] ??= value;
  const calls: DynamoDbCall[] = [];
  ddb().middlewareStack.add(
    (_next, context) => async (args) => {
      const call = { command: String(context.commandName), input: args.input as Record<string, any> };
      calls.push(call);
      return { output: { $metadata: {}, ...answer(call) } } as never;
    },
    { step: 'initialize', name: NAME, priority: 'high' },
  );
  return { calls, stop: () => void ddb().middlewareStack.remove(NAME) };
}

/** How consistent a read asks to be (a batch's first table's setting). */
export const consistencyOf = (call: DynamoDbCall): unknown =>
  call.input.RequestItems
    ? (Object.values(call.input.RequestItems)[0] as { ConsistentRead?: unknown }).ConsistentRead
    : call.input.ConsistentRead;
