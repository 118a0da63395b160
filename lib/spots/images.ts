// Spot images (spec 1): binary files identified by a uuid declared in a text's `imgs` (a uuid names
// an image within its spot), kept in the image store (S3: lib/spots/files.ts). Uploaded through
// the API (PUT, form field `img`) or, for large photos, straight to storage with a presigned POST;
// downloaded through the API. An image the caller cannot reach is 404 'File not found', whatever
// the reason, and its spot is never named.
import { DomainError, Invalid, NotFound } from '../errors';
import { log } from '../log';
import { SPOT_CODES } from './codes';
import type { SpotDeps } from './service';

export const IMAGE_MAX_BYTES_THROUGH_API = 5 * 1024 * 1024;
export const IMAGE_MAX_BYTES_PRESIGNED = 25 * 1024 * 1024;
export const PRESIGNED_UPLOAD_SECONDS = 300;
/** Larger images are answered with a redirect to a short-lived storage URL (Lambda payload limit). */
export const IMAGE_MAX_BYTES_INLINE = 4 * 1024 * 1024;
/** How long a download redirect's URL works. */
const REDIRECT_SECONDS = 60;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/gif'];

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
  new DomainError(status && status < 500 ? 'invalid' : 'internal', 'image could not be stored', {
    code: SPOT_CODES.NOT_STORED,
    extra: { detail },
    status,
    publicMessage: true,
  });

/** An upload for an image that no text of a spot the caller can change declares. */
export const notDeclared = () =>
  new Invalid('image could not be stored', {
    code: SPOT_CODES.NOT_STORED,
    extra: { detail: 'the image is not declared in a text of a spot you can change' },
  });

function checkType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!IMAGE_TYPES.includes(type))
    throw notStored(`the file must be an image (${IMAGE_TYPES.join(', ')}), not ${type || 'unknown'}`, 400);
  return type;
}

export type ImageDownload =
  | { kind: 'inline'; content: Buffer; contentType: string }
  | { kind: 'redirect'; url: string };

export function imageRules({ repository, images }: Pick<SpotDeps, 'repository' | 'images'>) {
  return {
    async storeImage(
      image: DeclaredImage,
      content: Buffer,
      contentType: string | undefined,
    ): Promise<{ size: number }> {
      const type = checkType(contentType);
      if (content.length === 0) throw notStored('the file is empty', 400);
      if (content.length > IMAGE_MAX_BYTES_THROUGH_API) {
        throw notStored(`images over ${IMAGE_MAX_BYTES_THROUGH_API} bytes go through the presigned upload`, 413);
      }
      try {
        await images.put(image.spotId, image.uuid, content, type);
      } catch (error) {
        log.error('image upload to storage failed', { imageUuid: image.uuid, error });
        throw notStored('the storage did not accept the file');
      }
      await repository.markUploaded(image, type, content.length);
      return { size: content.length };
    },

    async presignImageUpload(image: DeclaredImage, contentType: string | undefined) {
      const type = checkType(contentType);
      const post = await images.presign(
        image.spotId,
        image.uuid,
        type,
        IMAGE_MAX_BYTES_PRESIGNED,
        PRESIGNED_UPLOAD_SECONDS,
      );
      return {
        url: post.url,
        fields: post.fields,
        expires_in: PRESIGNED_UPLOAD_SECONDS,
        max_bytes: IMAGE_MAX_BYTES_PRESIGNED,
      };
    },

    async fetchImage(image: DeclaredImage): Promise<ImageDownload> {
      let size = image.size;
      let contentType = image.contentType;
      if (!image.uploaded) {
        // Uploaded straight to storage with a presigned POST: the object tells.
        const head = await images.head(image.spotId, image.uuid);
        if (!head) throw fileNotFound();
        ({ size, contentType } = head);
        await repository.markUploaded(image, head.contentType, head.size);
      }
      if ((size ?? 0) > IMAGE_MAX_BYTES_INLINE)
        return { kind: 'redirect', url: await images.signedUrl(image.spotId, image.uuid, REDIRECT_SECONDS) };
      const object = await images.get(image.spotId, image.uuid);
      if (!object) throw fileNotFound();
      return {
        kind: 'inline',
        content: object.content,
        contentType: contentType ?? object.contentType ?? 'application/octet-stream',
      };
    },
  };
}
