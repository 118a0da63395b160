// The SQS client, created once per container on first use.
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { AWS_REQUEST_HANDLER } from './http';

let client: SQSClient | undefined;

export function sqs(): SQSClient {
  if (!client) {
    const { region, endpoints } = config();
    client = new SQSClient({ region, endpoint: endpoints.sqs, requestHandler: AWS_REQUEST_HANDLER });
  }
  return client;
}
