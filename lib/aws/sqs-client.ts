// The SQS client and the commands we send, in a module loaded on first use through sqsKit()
// (lib/aws/sqs.ts), never imported statically: most functions that may publish an event (a labour,
// a map, a spot, a field) answer reads in most containers, and a container that never publishes
// never reads the client (ADR 0008).
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { AWS_REQUEST_HANDLER } from './http';

export { SendMessageBatchCommand, SendMessageCommand };

let client: SQSClient | undefined;

/** The client, created once per container. */
export function sqs(): SQSClient {
  if (!client) {
    const { region, endpoints } = config();
    client = new SQSClient({ region, endpoint: endpoints.sqs, requestHandler: AWS_REQUEST_HANDLER });
  }
  return client;
}
