// The S3 client, the commands we send and the presigners, in a module loaded on first use through
// s3Kit() (lib/aws/s3.ts), never imported statically: file storage lists and deletes without S3,
// and only uploads, downloads and signed URLs need it (ADR 0008). Path-style against the local
// emulator.
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config';
import { AWS_REQUEST_HANDLER } from './http';

export {
  createPresignedPost,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  getSignedUrl,
  HeadObjectCommand,
  PutObjectCommand,
};

let client: S3Client | undefined;

/** The client, created once per container. */
export function s3(): S3Client {
  if (!client) {
    const { region, endpoints } = config();
    client = new S3Client({
      region,
      endpoint: endpoints.s3,
      forcePathStyle: Boolean(endpoints.s3),
      requestHandler: AWS_REQUEST_HANDLER,
    });
  }
  return client;
}
