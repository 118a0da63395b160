// Layers from files and samplings in DynamoDB, S3 and SQS (docs/imagery.md, "Layers from files"):
// the kept upload in its user's partition (with a TTL), tables as gzipped JSON under uploads/, layer
// jobs on the imagery queue; the layers themselves are imagery dates (repository.ts). Apart from
// repository.ts so that the imagery readers do not bundle any of it.
import { gunzipSync, gzipSync } from 'node:zlib';
import { platformFieldGate } from '../authz/gate';
import { s3Kit } from '../aws/s3';
import { config } from '../config';
import { keys } from '../db/keys';
import { putItem, readItem } from '../db/table';
import { publishEvents } from '../events/publish-batch';
import { emitWebhookEvent } from '../webhooks/emit';
import { IMAGERY_LAYER_JOB } from './jobs';
import { layerBuilder } from './layer-build';
import type { LayerTable } from './layer-table';
import { dynamoImageryRepository, readRaster } from './repository';
import { LayerUpload, type UserLayerRepository, userLayers } from './user-layers';

export const dynamoUserLayerRepository: UserLayerRepository = {
  fieldShape: dynamoImageryRepository.fieldShape,
  date: dynamoImageryRepository.date,
  store: dynamoImageryRepository.store,
  async saveTable(objectKey, table) {
    const { s3, PutObjectCommand } = await s3Kit();
    await s3().send(
      new PutObjectCommand({
        Bucket: config().bucket,
        Key: objectKey,
        Body: gzipSync(JSON.stringify(table)),
        ContentType: 'application/gzip',
      }),
    );
  },
  async table(objectKey) {
    const bytes = await readRaster(objectKey);
    return bytes ? (JSON.parse(gunzipSync(bytes).toString('utf8')) as LayerTable) : undefined;
  },
  saveUpload: (upload) => putItem({ ...keys.layerUpload(upload.ownerId, upload.id), ...LayerUpload.toItem(upload) }),
  upload: (ownerId, id) => readItem(keys.layerUpload(ownerId, id), LayerUpload.fromItem),
  publishLayers: (job) => publishEvents(IMAGERY_LAYER_JOB, [job], { queue: 'imageryUrgent' }),
};

/** POST /files, POST /raster and the samplings' layers. */
export const layers = /* @__PURE__ */ userLayers({ repository: dynamoUserLayerRepository, gate: platformFieldGate });
/** The imagery worker's layer jobs. */
export const layerBuild = /* @__PURE__ */ layerBuilder({
  repository: dynamoUserLayerRepository,
  emit: emitWebhookEvent,
});
