// The DynamoDB document client, created once per container on first use. Each AWS client has its
// own module so that a function bundles only the clients it uses.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { AWS_REQUEST_HANDLER } from './http';

let documentClient: DynamoDBDocumentClient | undefined;

export function ddb(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { region, endpoints } = config();
    const base = new DynamoDBClient({
      region,
      endpoint: endpoints.dynamodb,
      maxAttempts: 4,
      requestHandler: AWS_REQUEST_HANDLER,
    });
    // Numbers are JavaScript numbers both ways, whatever their size: sent as JavaScript prints them
    // (DynamoDB keeps 38 digits) and read back with Number() (never a BigInt, which JSON cannot
    // write). Numbers DynamoDB cannot hold are refused by it and answered 400 (lib/db/table.ts).
    documentClient = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, allowImpreciseNumbers: true },
      unmarshallOptions: { wrapNumbers: (value: string) => Number(value) },
    });
  }
  return documentClient;
}
