// /api/spots/msgs/imgs: PUT (upload), GET (download, by query or path), and the presigned upload

import type { Principal } from '../../lib/auth/principal';
import { s3Kit } from '../../lib/aws/s3';
import { Invalid } from '../../lib/errors';
import { fileField } from '../../lib/http/body';
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { SPOT_CODES } from '../../lib/spots/codes';
import { fileNotFound, notDeclared } from '../../lib/spots/images';
import { spotImages as spots } from '../../lib/spots/repository';
import { downloadImageByPathRoute, downloadImageRoute, presignImageRoute, uploadImageRoute } from '../../schemas/spots';

/** An image declared in a text of a spot the caller can change (51 'image could not be stored' otherwise). */
const writableImage = async (principal: Principal, uuid: string) =>
  (await spots.locateImage(principal, uuid, 'write', notDeclared)).image;

/** Every route here reads, writes or signs the image in S3 once its spot is found. */
const preload = [s3Kit];

export const put = endpoint(uploadImageRoute, {
  preload,
  handler: async ({ query, body, principal }) => {
    const file = fileField(body, 'img');
    if (!file) {
      throw new Invalid('image could not be stored', {
        code: SPOT_CODES.NOT_STORED,
        extra: { detail: 'send the file as multipart/form-data under the field img' },
      });
    }
    const image = await writableImage(principal, query.uuid);
    const { size } = await spots.storeImage(image, file.content, file.mimetype);
    return { uuid: image.uuid, stored: true, size };
  },
});

export const presign = endpoint(presignImageRoute, {
  preload,
  handler: async ({ query, principal }) =>
    spots.presignImageUpload(await writableImage(principal, query.uuid), query.content_type),
});

/** An image the caller cannot read, of a deleted spot, or not uploaded yet: 404 'File not found'. */
async function download(principal: Principal, uuid: string) {
  const { image } = await spots.locateImage(principal, uuid, 'read', fileNotFound);
  const result = await spots.fetchImage(image);
  if (result.kind === 'redirect') return new Reply(302, undefined, { location: result.url });
  return Reply.file(result.content, result.contentType);
}

export const get = endpoint(downloadImageRoute, {
  preload,
  handler: async ({ query, principal }) => download(principal, query.uuid),
});
export const getByPath = endpoint(downloadImageByPathRoute, {
  preload,
  handler: async ({ path, principal }) => download(principal, path.uuid),
});
