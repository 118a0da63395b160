// The S3 client, created once per container on first use (path-style against the local emulator).
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { AWS_REQUEST_HANDLER } from './http';

let client: S3Client | undefined;

export function s3(): S3Client {
  if (!client) {
    const { region, endpoints } = config();
    client = new S3Client({ region, endpoint: endpoints.s3, forcePathStyle: Boolean(endpoints.s3), requestHandler: AWS_REQUEST_HANDLER });
  }
  return client;
}

/**
 * The object, or undefined when S3 says it does not exist (404). Any other failure (S3 unreachable,
 * throttled, denied) propagates: an object that cannot be read now is not an object that is gone
 * (docs/reliability.md).
 */
export async function ifPresent<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
    const name = (error as Error | null)?.name;
    if (status === 404 || name === 'NoSuchKey' || name === 'NotFound') return undefined;
    throw error;
  }
}
