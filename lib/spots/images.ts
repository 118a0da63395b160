// Spot images (spec 1): binary files identified by a uuid declared in a text's `imgs` (a uuid names
// an image within its spot), stored in S3 under spots/<spot id>/<image uuid>. Uploaded through the
// API (PUT, form field `img`) or, for large photos, straight to S3 with a presigned POST;
// downloaded through the API. An image the caller cannot reach is 404 'File not found', whatever
// the reason, and its spot is never named.
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ifPresent, s3 } from '../aws/s3';
import { config } from '../config';
import { keys } from '../db/keys';
import { updateItem, type Item } from '../db/table';
import { DomainError, Invalid, NotFound } from '../errors';
import { log } from '../log';
import type { Principal } from '../auth/principal';
import { SPOT_CODES } from './model';
import { locateByRefs, type SpotAction, type SpotScope } from './locate';

export const IMAGE_MAX_BYTES_THROUGH_API = 5 * 1024 * 1024;
export const IMAGE_MAX_BYTES_PRESIGNED = 25 * 1024 * 1024;
export const PRESIGNED_UPLOAD_SECONDS = 300;
/** Larger images are answered with a redirect to a short-lived S3 URL (Lambda payload limit). */
export const IMAGE_MAX_BYTES_INLINE = 4 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/gif'];

export const objectKey = (spotId: number, imageUuid: string) => `spots/${spotId}/${imageUuid.toLowerCase()}`;

export interface DeclaredImage {
  uuid: string;
  spotId: number;
  uploaded: boolean;
  contentType?: string;
  size?: number;
}

export const fileNotFound = () => new NotFound('File not found', { code: SPOT_CODES.NOT_FOUND });
/** The contract's answer when storage refuses a file: its info is kept even when the cause is ours (500). */
const notStored = (detail: string, status?: number) =>
  new DomainError(status && status < 500 ? 'invalid' : 'internal', 'image could not be stored', { code: SPOT_CODES.NOT_STORED, extra: { detail }, status, publicMessage: true });

const imageFromItem = (item: Item): DeclaredImage => ({
  uuid: String(item.uuid),
  spotId: Number(item.spot_id),
  uploaded: Boolean(item.uploaded),
  contentType: item.content_type as string | undefined,
  size: item.size === undefined ? undefined : Number(item.size),
});

/** An image declared in a text of a spot the caller can reach for `action`, and that spot. */
export async function locateImage(principal: Principal, imageUuid: string, action: SpotAction, notFound: () => DomainError): Promise<{ image: DeclaredImage; scope: SpotScope }> {
  const { scope, ref } = await locateByRefs(principal, keys.spotImageRefs(imageUuid), action, notFound);
  return { image: imageFromItem(ref), scope };
}

function checkType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!IMAGE_TYPES.includes(type)) throw notStored(`the file must be an image (${IMAGE_TYPES.join(', ')}), not ${type || 'unknown'}`, 400);
  return type;
}

async function markUploaded(image: DeclaredImage, contentType: string, size: number): Promise<void> {
  await updateItem(keys.spotImage(image.uuid, image.spotId), {
    expression: 'SET uploaded = :yes, content_type = :type, #size = :size, uploaded_at = :at',
    condition: 'attribute_exists(pk)',
    names: { '#size': 'size' },
    values: { ':yes': true, ':type': contentType, ':size': size, ':at': new Date().toISOString() },
  });
}

export async function storeImage(image: DeclaredImage, content: Buffer, contentType: string | undefined): Promise<{ size: number }> {
  const type = checkType(contentType);
  if (content.length === 0) throw notStored('the file is empty', 400);
  if (content.length > IMAGE_MAX_BYTES_THROUGH_API) {
    throw notStored(`images over ${IMAGE_MAX_BYTES_THROUGH_API} bytes go through the presigned upload`, 413);
  }
  try {
    await s3().send(new PutObjectCommand({ Bucket: config().bucket, Key: objectKey(image.spotId, image.uuid), Body: content, ContentType: type }));
  } catch (error) {
    log.error('image upload to S3 failed', { imageUuid: image.uuid, error });
    throw notStored('the storage did not accept the file');
  }
  await markUploaded(image, type, content.length);
  return { size: content.length };
}

export async function presignImageUpload(image: DeclaredImage, contentType: string | undefined) {
  const type = checkType(contentType);
  const post = await createPresignedPost(s3(), {
    Bucket: config().bucket,
    Key: objectKey(image.spotId, image.uuid),
    Conditions: [
      ['content-length-range', 1, IMAGE_MAX_BYTES_PRESIGNED],
      ['eq', '$Content-Type', type],
    ],
    Fields: { 'Content-Type': type },
    Expires: PRESIGNED_UPLOAD_SECONDS,
  });
  return { url: post.url, fields: post.fields, expires_in: PRESIGNED_UPLOAD_SECONDS, max_bytes: IMAGE_MAX_BYTES_PRESIGNED };
}

export type ImageDownload = { kind: 'inline'; content: Buffer; contentType: string } | { kind: 'redirect'; url: string };

export async function fetchImage(image: DeclaredImage): Promise<ImageDownload> {
  const Key = objectKey(image.spotId, image.uuid);
  const Bucket = config().bucket;
  let size = image.size;
  let contentType = image.contentType;
  if (!image.uploaded) {
    // Uploaded straight to S3 with a presigned POST: the object tells.
    const head = await ifPresent(s3().send(new HeadObjectCommand({ Bucket, Key })));
    if (!head) throw fileNotFound();
    size = head.ContentLength ?? 0;
    contentType = head.ContentType ?? 'application/octet-stream';
    await markUploaded(image, contentType, size);
  }
  if ((size ?? 0) > IMAGE_MAX_BYTES_INLINE) {
    return { kind: 'redirect', url: await getSignedUrl(s3(), new GetObjectCommand({ Bucket, Key }), { expiresIn: 60 }) };
  }
  const object = await ifPresent(s3().send(new GetObjectCommand({ Bucket, Key })));
  if (!object?.Body) throw fileNotFound();
  return { kind: 'inline', content: Buffer.from(await object.Body.transformToByteArray()), contentType: contentType ?? object.ContentType ?? 'application/octet-stream' };
}

export async function deleteImageObjects(spotId: number, imageUuids: string[]): Promise<void> {
  for (let i = 0; i < imageUuids.length; i += 1000) {
    await s3().send(
      new DeleteObjectsCommand({
        Bucket: config().bucket,
        Delete: { Objects: imageUuids.slice(i, i + 1000).map((uuid) => ({ Key: objectKey(spotId, uuid) })), Quiet: true },
      }),
    );
  }
}

/** An upload for an image that no text of a spot the caller can change declares. */
export const notDeclared = () =>
  new Invalid('image could not be stored', { code: SPOT_CODES.NOT_STORED, extra: { detail: 'the image is not declared in a text of a spot you can change' } });
