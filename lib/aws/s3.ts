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
