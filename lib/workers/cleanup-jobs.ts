// The events worker's jobs on files and rasters (ADR 0008): removing a deleted field's and a
// deleted spot's contents, releasing stored objects, reprocessing a season shape's images. They
// need the S3 client and proj4, which the worker's common messages (notifications, webhook
// fan-out) never use: functions/workers/events.ts loads this module on first use.

export { deleteObjects } from '../aws/s3';
export { reprocessShape } from '../season-shapes/reprocess';
export { purgeSpotContents } from '../spots/repository';
export { cleanUpDeletedField } from './field-deleted';
