// AWS SDK clients, created once per container on first use. Locally the endpoints point at the
// emulators (DynamoDB Local, s3rver, local-aws-sqs); in AWS they are absent.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config';

let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;
let sqsClient: SQSClient | undefined;
let secretsClient: SecretsManagerClient | undefined;

export function ddb(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { region, endpoints } = config();
    const base = new DynamoDBClient({ region, endpoint: endpoints.dynamodb, maxAttempts: 4 });
    documentClient = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
}

export function s3(): S3Client {
  if (!s3Client) {
    const { region, endpoints } = config();
    s3Client = new S3Client({
      region,
      endpoint: endpoints.s3,
      forcePathStyle: Boolean(endpoints.s3),
    });
  }
  return s3Client;
}

export function sqs(): SQSClient {
  if (!sqsClient) {
    const { region, endpoints } = config();
    sqsClient = new SQSClient({ region, endpoint: endpoints.sqs });
  }
  return sqsClient;
}

export function secrets(): SecretsManagerClient {
  if (!secretsClient) {
    secretsClient = new SecretsManagerClient({ region: config().region });
  }
  return secretsClient;
}
