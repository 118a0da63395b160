// Spot image files in S3, under spots/<spot id>/<image uuid>: the image store the spots service is
// built with (lib/spots/service.ts ImageStore).
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ifPresent, s3 } from '../aws/s3';
import { config } from '../config';
import type { ImageStore } from './service';

export const objectKey = (spotId: number, imageUuid: string) => `spots/${spotId}/${imageUuid.toLowerCase()}`;

/** S3 deletes at most this many objects per request. */
const DELETE_BATCH = 1000;

export const s3ImageStore: ImageStore = {
  async put(spotId, uuid, content, contentType) {
    await s3().send(new PutObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid), Body: content, ContentType: contentType }));
  },
  async presign(spotId, uuid, contentType, maxBytes, seconds) {
    const post = await createPresignedPost(s3(), {
      Bucket: config().bucket,
      Key: objectKey(spotId, uuid),
      Conditions: [
        ['content-length-range', 1, maxBytes],
        ['eq', '$Content-Type', contentType],
      ],
      Fields: { 'Content-Type': contentType },
      Expires: seconds,
    });
    return { url: post.url, fields: post.fields };
  },
  async head(spotId, uuid) {
    const head = await ifPresent(s3().send(new HeadObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid) })));
    return head ? { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' } : undefined;
  },
  async get(spotId, uuid) {
    const object = await ifPresent(s3().send(new GetObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid) })));
    return object?.Body ? { content: Buffer.from(await object.Body.transformToByteArray()), contentType: object.ContentType } : undefined;
  },
  signedUrl: (spotId, uuid, seconds) => getSignedUrl(s3(), new GetObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid) }), { expiresIn: seconds }),
  async remove(spotId, uuids) {
    for (let i = 0; i < uuids.length; i += DELETE_BATCH) {
      await s3().send(
        new DeleteObjectsCommand({ Bucket: config().bucket, Delete: { Objects: uuids.slice(i, i + DELETE_BATCH).map((uuid) => ({ Key: objectKey(spotId, uuid) })), Quiet: true } }),
      );
    }
  },
};
