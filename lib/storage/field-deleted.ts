// A deleted field's stored objects (extension files of the field's scope, imagery rasters) go
// before their records, so that a failed attempt is retried whole.
import { deleteObjects } from '../aws/s3';
import type { FieldDeletedPart } from '../platform/field-deleted';
import { objectKeysOf } from './repository';

export const storageOnFieldDeleted: FieldDeletedPart = {
  before: (items) => deleteObjects(objectKeysOf(items)),
};
