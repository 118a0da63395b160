// Spot image files in S3, under spots/<spot id>/<image uuid>: the image store the spots service is
// built with (lib/spots/service.ts ImageStore). The S3 client is loaded at the first image
// operation (s3Kit, ADR 0008): creating, changing or listing spots without images never loads it.
import { deleteObjects, ifPresent, s3Kit } from '../aws/s3';
import { config } from '../config';
import type { ImageStore } from './service';

export const objectKey = (spotId: number, imageUuid: string) => `spots/${spotId}/${imageUuid.toLowerCase()}`;

export const s3ImageStore: ImageStore = {
  async put(spotId, uuid, content, contentType) {
    const { s3, PutObjectCommand } = await s3Kit();
    await s3().send(
      new PutObjectCommand({
        Bucket: config().bucket,
        Key: objectKey(spotId, uuid),
        Body: content,
        ContentType: contentType,
      }),
    );
  },
  async presign(spotId, uuid, contentType, maxBytes, seconds) {
    const { s3, createPresignedPost } = await s3Kit();
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
    const { s3, HeadObjectCommand } = await s3Kit();
    const head = await ifPresent(
      s3().send(new HeadObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid) })),
    );
    return head
      ? { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' }
      : undefined;
  },
  async get(spotId, uuid) {
    const { s3, GetObjectCommand } = await s3Kit();
    const object = await ifPresent(
      s3().send(new GetObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid) })),
    );
    return object?.Body
      ? { content: Buffer.from(await object.Body.transformToByteArray()), contentType: object.ContentType }
      : undefined;
  },
  async signedUrl(spotId, uuid, seconds) {
    const { s3, getSignedUrl, GetObjectCommand } = await s3Kit();
    return getSignedUrl(s3(), new GetObjectCommand({ Bucket: config().bucket, Key: objectKey(spotId, uuid) }), {
      expiresIn: seconds,
    });
  },
  remove: (spotId, uuids) => deleteObjects(uuids.map((uuid) => objectKey(spotId, uuid))),
};
